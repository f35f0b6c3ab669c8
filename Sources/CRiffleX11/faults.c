/* The shim's faults: protocol errors trapped around requests that may fail, the lost connection,
 * and the quit signals that end the loop cleanly. */
#define _GNU_SOURCE
#include "CRiffleX11.h"
#include "internal.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xcursor/Xcursor.h>
#include <X11/Xutil.h>
#include <X11/cursorfont.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XShm.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* MARK: errors */

/* Xlib error handlers are process-wide, so the trap is too. While it is set, protocol errors
 * are recorded instead of reported: XShmAttach on a server that cannot map the segment fails
 * asynchronously with BadAccess, and XGetImage on an unviewable window with BadMatch. */
static int rfx_trap_active;
static int rfx_trap_code;
static char rfx_trap_text[128];

static int rfx_on_error(Display *dpy, XErrorEvent *error) {
    char text[128];
    XGetErrorText(dpy, error->error_code, text, sizeof text);
    if (rfx_trap_active) {
        if (rfx_trap_code == 0) {
            rfx_trap_code = error->error_code;
            snprintf(rfx_trap_text, sizeof rfx_trap_text, "%s", text);
        }
        return 0;
    }
    /* Xlib's default handler exits; one failed request (say, to a window manager that went
     * away) must not take the viewer down with it. */
    fprintf(stderr, "riffle: X error: %s (request %d.%d)\n", text, error->request_code,
            error->minor_code);
    return 0;
}

/* The first quit signal caught, and the wake pipe its handler writes to (both read and written
 * only as a sig_atomic_t and an int, as a handler may). */
static volatile sig_atomic_t rfx_caught_quit_signal = 0;
static volatile sig_atomic_t rfx_quit_wake_fd = -1;

static int rfx_on_io_error(Display *dpy) {
    /* Xlib exits when this returns; say why first. */
    fprintf(stderr, "riffle: lost the connection to X display %s: %s\n", DisplayString(dpy),
            errno ? strerror(errno) : "server closed it");
    exit(1);
}

void rfx_trap_begin(Display *dpy) {
    XSync(dpy, False); /* earlier requests' errors belong to the normal handler */
    rfx_trap_code = 0;
    rfx_trap_text[0] = 0;
    rfx_trap_active = 1;
}

/* Returns the first error code raised since rfx_trap_begin (0: none). */
int rfx_trap_end(Display *dpy) {
    XSync(dpy, False);
    rfx_trap_active = 0;
    return rfx_trap_code;
}

const char *rfx_trap_message(void) { return rfx_trap_text; }

void rfx_format(char *out, int len, const char *format, ...) {
    if (!out || len <= 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(out, (size_t)len, format, args);
    va_end(args);
}

static void rfx_on_quit_signal(int number) {
    if (rfx_caught_quit_signal == 0) rfx_caught_quit_signal = number;
    int fd = rfx_quit_wake_fd;
    if (fd >= 0) {
        /* write(2) is async-signal-safe; a full pipe already holds a wake-up. */
        int saved = errno;
        ssize_t written = write(fd, "q", 1);
        (void)written;
        errno = saved;
    }
}

void rfx_catch_quit_signals(rfx_display *d) {
    rfx_quit_wake_fd = d->wake_pipe[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = rfx_on_quit_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t blocked;
    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++) {
        sigaction(quit_signals[i], &action, NULL);
        sigaddset(&blocked, quit_signals[i]);
    }
    /* A mask inherited from the launcher (a test runner's thread, a shell's job) may block them:
     * this thread, and the threads it starts from now on, take them. */
    pthread_sigmask(SIG_UNBLOCK, &blocked, NULL);
}

int rfx_quit_signal(void) { return rfx_caught_quit_signal; }

void rfx_release_quit_signals(rfx_display *d) {
    if (rfx_quit_wake_fd == d->wake_pipe[1]) rfx_quit_wake_fd = -1;
}

void rfx_install_error_handlers(void) {
    XSetErrorHandler(rfx_on_error);
    XSetIOErrorHandler(rfx_on_io_error);
}
