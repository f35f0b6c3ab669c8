/* CRiffleX11: prefixed C shim over Xlib, MIT-SHM and XInput2 (rfx_). See CRiffleX11.h. */
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

/* A scroll valuator of the device that sent the latest XInput 2 motion. */
typedef struct rfx_scroll_valuator {
    int number;       /* valuator index in XIDeviceEvent.valuators */
    int horizontal;   /* XIScrollTypeHorizontal */
    double increment; /* valuator units per notch; negative on inverted devices */
    double last;      /* value at the previous event, the base of the next delta */
    int has_last;
} rfx_scroll_valuator;

enum {
    RFX_MAX_SCROLL_VALUATORS = 8,
    /* At most one XInput 2 motion yields two events (a move and a scroll). */
    RFX_MAX_PENDING = 2,
    /* Startup waits this long for the first Expose: a window manager may keep the window
     * unmapped (started iconic), and the app must not hang on that. */
    RFX_FIRST_EXPOSE_TIMEOUT_MS = 2000,
    /* A dropped URI list arriving by INCR is refused past this many bytes (a list of 100,000
     * long paths is about 10 MB): a source that never ends must not take the memory. */
    RFX_MAX_DROP_BYTES = 64 << 20
};

struct rfx_display {
    Display *dpy;
    Window root;
    Window window;
    Visual *visual;
    int depth;
    Colormap colormap;
    GC gc;
    Atom wm_protocols, wm_delete_window, net_wm_name, utf8_string, net_wm_state,
        net_wm_state_fullscreen, net_wm_bypass_compositor;
    int wake_pipe[2]; /* [0] read end, polled in rfx_wait; [1] written by rfx_wake */
    Cursor cursors[RFX_CURSOR_COUNT]; /* loaded on first use; None: not yet */

    /* MIT-SHM */
    int shm_usable;               /* 0 once SHM is known not to work on this connection */
    const char *shm_missing;      /* why not, when known before the first attach */
    int shm_completion_type;      /* event type of ShmCompletion */
    int shm_fallback_reported;    /* the stderr line is printed once */
    int puts_in_flight;           /* XShmPutImage requests without their completion yet */

    /* XInput 2 */
    int xi_opcode;        /* major opcode of XInputExtension; pointer events come from it */
    int xi_enabled;       /* 1: buttons, motion and scroll are XI2 events, 0: core events */
    int scroll_source;    /* slave device the scroll valuators below belong to (0: none) */
    int scroll_count;
    rfx_scroll_valuator scroll[RFX_MAX_SCROLL_VALUATORS];
    double last_x, last_y; /* last pointer position seen, to tell scroll-only motions apart */

    rfx_event pending[RFX_MAX_PENDING];
    int pending_count;
    Time last_user_time; /* of the last key or button event: selections are claimed at it */
    char *event_data;    /* what the last event's `data` points to (malloc'ed) */

    /* XDND and the clipboard */
    Atom xdnd_aware, xdnd_enter, xdnd_position, xdnd_status, xdnd_leave, xdnd_drop, xdnd_finished,
        xdnd_selection, xdnd_type_list, xdnd_action_copy, uri_list, drop_property, clipboard,
        incr;
    /* A drop's text/uri-list coming by INCR (ICCCM 2.7.2): the chunks read so far. */
    int drop_incremental;  /* 1 from the INCR answer until its zero-length end */
    int drop_overflowed;   /* 1 once the chunks passed RFX_MAX_DROP_BYTES: refused at the end */
    char *drop_bytes;      /* malloc'ed, drop_length bytes used of drop_capacity */
    long drop_length, drop_capacity;

    /* Other extensions' GenericEvents (Present's notifies), handed to their owner. */
    rfx_generic_event_handler generic_handler;
    void *generic_context;
};

Display *rfx_display_xlib(rfx_display *d) { return d->dpy; }
Window rfx_display_window(rfx_display *d) { return d->window; }
int rfx_display_depth(rfx_display *d) { return d->depth; }
int rfx_display_shares_memory(rfx_display *d) { return d->shm_usable; }

void rfx_display_set_generic_handler(rfx_display *d, rfx_generic_event_handler handler,
                                     void *context) {
    d->generic_handler = handler;
    d->generic_context = context;
}

struct rfx_image {
    XImage *image;
    XShmSegmentInfo shm;
    int shared;
};

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

static void rfx_trap_begin(Display *dpy) {
    XSync(dpy, False); /* earlier requests' errors belong to the normal handler */
    rfx_trap_code = 0;
    rfx_trap_text[0] = 0;
    rfx_trap_active = 1;
}

/* Returns the first error code raised since rfx_trap_begin (0: none). */
static int rfx_trap_end(Display *dpy) {
    XSync(dpy, False);
    rfx_trap_active = 0;
    return rfx_trap_code;
}

static void rfx_format(char *out, int len, const char *format, ...) {
    if (!out || len <= 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(out, (size_t)len, format, args);
    va_end(args);
}

/* MARK: opening */

/* Picks a TrueColor visual whose pixels are 0x00RRGGBB in 32-bit words, preferring depth 24
 * (depth 32 is an ARGB visual a compositor blends with what lies behind). */
static int rfx_choose_visual(Display *dpy, int screen, XVisualInfo *chosen) {
    static const int depths[] = {24, 32};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        if (!XMatchVisualInfo(dpy, screen, depths[i], TrueColor, chosen)) continue;
        if (chosen->red_mask != 0xff0000 || chosen->green_mask != 0xff00 ||
            chosen->blue_mask != 0xff)
            continue;
        int count = 0;
        XPixmapFormatValues *formats = XListPixmapFormats(dpy, &count);
        int bits = 0;
        for (int f = 0; f < count; f++)
            if (formats[f].depth == depths[i]) bits = formats[f].bits_per_pixel;
        XFree(formats);
        if (bits == 32) return 1;
    }
    return 0;
}

/* SHM only works when client and server share a kernel: a Unix-socket connection. Over TCP
 * (ssh -X, a remote DISPLAY) the server would look up the segment id in its own kernel. */
static int rfx_connection_is_local(Display *dpy) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(ConnectionNumber(dpy), (struct sockaddr *)&address, &length) != 0) return 0;
    return address.ss_family == AF_UNIX;
}

static void rfx_init_shm(rfx_display *d) {
    if (!rfx_connection_is_local(d->dpy)) {
        d->shm_missing = "not a local connection";
    } else if (!XShmQueryExtension(d->dpy)) {
        d->shm_missing = "the server has no MIT-SHM extension";
    } else {
        d->shm_usable = 1;
        d->shm_completion_type = XShmGetEventBase(d->dpy) + ShmCompletion;
    }
}

/* Selects pointer input as XInput 2 events when the server speaks XI 2.1 or later (scroll
 * valuators), and pinch gestures from XI 2.4. XI2 and core pointer events are never mixed:
 * the server delivers an XI2-selected event instead of its core twin, so choosing XI2 means
 * translating its buttons and motion too. Returns 0 to leave core pointer events in charge. */
static int rfx_init_xinput(rfx_display *d) {
    int event_base, error_base;
    if (!XQueryExtension(d->dpy, "XInputExtension", &d->xi_opcode, &event_base, &error_base))
        return 0;
    /* Announce the newest version libXi was built with; the server answers with what both
     * speak. XIQueryVersion must be called once per client with one version. */
    int major = XI_2_Major, minor = XI_2_Minor;
    if (XIQueryVersion(d->dpy, &major, &minor) != Success) return 0;
    if (major < 2 || (major == 2 && minor < 1)) return 0;

    unsigned char bits[XIMaskLen(XI_LASTEVENT)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_ButtonPress);
    XISetMask(bits, XI_ButtonRelease);
    XISetMask(bits, XI_Motion);
    XISetMask(bits, XI_Enter);         /* scroll valuators may have moved while away */
    XISetMask(bits, XI_DeviceChanged); /* the master pointer switched to another slave */
#ifdef XI_GesturePinchBegin
    if (major > 2 || minor >= 4) {
        XISetMask(bits, XI_GesturePinchBegin);
        XISetMask(bits, XI_GesturePinchUpdate);
        XISetMask(bits, XI_GesturePinchEnd);
    }
#endif
    XIEventMask mask = {.deviceid = XIAllMasterDevices, .mask_len = sizeof bits, .mask = bits};
    rfx_trap_begin(d->dpy);
    XISelectEvents(d->dpy, d->window, &mask, 1);
    return rfx_trap_end(d->dpy) == 0;
}

static Bool rfx_note_expose(Display *dpy, XEvent *event, XPointer seen) {
    (void)dpy;
    if (event->type == Expose) *(int *)seen = 1;
    return False; /* leave every event queued: the app sees this Expose too */
}

long rfx_monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000L + now.tv_nsec / 1000000L;
}

static void rfx_wait_for_first_expose(rfx_display *d) {
    long deadline = rfx_monotonic_ms() + RFX_FIRST_EXPOSE_TIMEOUT_MS;
    for (;;) {
        int seen = 0;
        XEvent event;
        XCheckIfEvent(d->dpy, &event, rfx_note_expose, (XPointer)&seen);
        long remaining = deadline - rfx_monotonic_ms();
        if (seen || remaining <= 0) return;
        struct pollfd fd = {.fd = ConnectionNumber(d->dpy), .events = POLLIN};
        poll(&fd, 1, (int)remaining);
    }
}

/* MARK: desktop integration */

/* The properties window managers, task bars and session tools read (EWMH
 * https://specifications.freedesktop.org/wm-spec/ and ICCCM): who owns the window (_NET_WM_PID
 * with WM_CLIENT_MACHINE, so a hung window can be killed on the right host), and what kind of
 * window it is (_NET_WM_WINDOW_TYPE_NORMAL). */
static void rfx_set_ownership(rfx_display *d) {
    long pid = (long)getpid();
    XChangeProperty(d->dpy, d->window, XInternAtom(d->dpy, "_NET_WM_PID", False), XA_CARDINAL,
                    32, PropModeReplace, (const unsigned char *)&pid, 1);
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = 0;
        char *list[1] = {host};
        XTextProperty text;
        if (XStringListToTextProperty(list, 1, &text)) {
            XSetWMClientMachine(d->dpy, d->window, &text);
            XFree(text.value);
        }
    }
    Atom normal = XInternAtom(d->dpy, "_NET_WM_WINDOW_TYPE_NORMAL", False);
    XChangeProperty(d->dpy, d->window, XInternAtom(d->dpy, "_NET_WM_WINDOW_TYPE", False),
                    XA_ATOM, 32, PropModeReplace, (const unsigned char *)&normal, 1);
}

/* Startup notification (https://specifications.freedesktop.org/startup-notification-spec/):
 * a launcher that shows a busy cursor for a program passes it DESKTOP_STARTUP_ID. The id goes on
 * the window as _NET_STARTUP_ID before it maps, and is taken out of the environment so nothing
 * this process starts claims it. Returns the id (malloc'ed) or NULL when there is none. */
static char *rfx_take_startup_id(rfx_display *d) {
    const char *id = getenv("DESKTOP_STARTUP_ID");
    if (!id || !*id) return NULL;
    char *copy = strdup(id);
    unsetenv("DESKTOP_STARTUP_ID");
    if (!copy) return NULL;
    XChangeProperty(d->dpy, d->window, XInternAtom(d->dpy, "_NET_STARTUP_ID", False),
                    d->utf8_string, 8, PropModeReplace, (const unsigned char *)copy,
                    (int)strlen(copy));
    return copy;
}

/* Ends the launch `id` names, which ends the launcher's busy cursor: the message
 * `remove: ID="id"` (quotes and backslashes escaped), broadcast to the root window in 20-byte
 * ClientMessages, _NET_STARTUP_INFO_BEGIN then _NET_STARTUP_INFO, NUL-terminated, each carrying
 * a window of the sender's own as the protocol asks. */
static void rfx_send_startup_remove(rfx_display *d, const char *id) {
    size_t capacity = 16 + 2 * strlen(id);
    char *message = malloc(capacity);
    if (!message) return;
    size_t length = (size_t)snprintf(message, capacity, "remove: ID=\"");
    for (const char *c = id; *c; c++) {
        if (*c == '"' || *c == '\\') message[length++] = '\\';
        message[length++] = *c;
    }
    message[length++] = '"';
    message[length++] = 0; /* the terminator is sent too: it ends the message */

    XSetWindowAttributes attributes = {.override_redirect = True};
    Window sender = XCreateWindow(d->dpy, d->root, -100, -100, 1, 1, 0, CopyFromParent, InputOnly,
                                  CopyFromParent, CWOverrideRedirect, &attributes);
    Atom begin = XInternAtom(d->dpy, "_NET_STARTUP_INFO_BEGIN", False);
    Atom more = XInternAtom(d->dpy, "_NET_STARTUP_INFO", False);
    for (size_t sent = 0; sent < length; sent += 20) {
        XEvent event;
        memset(&event, 0, sizeof event);
        event.xclient.type = ClientMessage;
        event.xclient.window = sender;
        event.xclient.message_type = sent == 0 ? begin : more;
        event.xclient.format = 8;
        size_t chunk = length - sent < 20 ? length - sent : 20;
        memcpy(event.xclient.data.b, message + sent, chunk);
        XSendEvent(d->dpy, d->root, False, PropertyChangeMask, &event);
    }
    XDestroyWindow(d->dpy, sender);
    XFlush(d->dpy);
    free(message);
}

/* Names the atoms of drag and drop and of the clipboard, and advertises XDND: the XdndAware
 * property holds the protocol version the window speaks (XDND spec, "XdndAware"). */
static void rfx_init_xdnd(rfx_display *d) {
    Display *dpy = d->dpy;
    d->xdnd_aware = XInternAtom(dpy, "XdndAware", False);
    d->xdnd_enter = XInternAtom(dpy, "XdndEnter", False);
    d->xdnd_position = XInternAtom(dpy, "XdndPosition", False);
    d->xdnd_status = XInternAtom(dpy, "XdndStatus", False);
    d->xdnd_leave = XInternAtom(dpy, "XdndLeave", False);
    d->xdnd_drop = XInternAtom(dpy, "XdndDrop", False);
    d->xdnd_finished = XInternAtom(dpy, "XdndFinished", False);
    d->xdnd_selection = XInternAtom(dpy, "XdndSelection", False);
    d->xdnd_type_list = XInternAtom(dpy, "XdndTypeList", False);
    d->xdnd_action_copy = XInternAtom(dpy, "XdndActionCopy", False);
    d->uri_list = XInternAtom(dpy, "text/uri-list", False);
    d->drop_property = XInternAtom(dpy, "RIFFLE_DROP", False);
    d->clipboard = XInternAtom(dpy, "CLIPBOARD", False);
    d->incr = XInternAtom(dpy, "INCR", False);
    long version = RFX_XDND_VERSION;
    XChangeProperty(dpy, d->window, d->xdnd_aware, XA_ATOM, 32, PropModeReplace,
                    (const unsigned char *)&version, 1);
}

rfx_display *rfx_open(const char *display_name, int width, int height, int min_width, int min_height,
                      const char *title, char *error, int error_len) {
    XSetErrorHandler(rfx_on_error);
    XSetIOErrorHandler(rfx_on_io_error);
    const char *name = XDisplayName(display_name);
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) {
        if (name && *name)
            rfx_format(error, error_len, "cannot open X display %s — is DISPLAY set?", name);
        else
            rfx_format(error, error_len, "cannot open an X display — DISPLAY is not set");
        return NULL;
    }
    int screen = DefaultScreen(dpy);
    XVisualInfo visual;
    if (!rfx_choose_visual(dpy, screen, &visual)) {
        rfx_format(error, error_len,
                   "X display %s has no 24- or 32-bit TrueColor visual with 8-bit RGB channels "
                   "in 32-bit pixels",
                   DisplayString(dpy));
        XCloseDisplay(dpy);
        return NULL;
    }
    rfx_display *d = calloc(1, sizeof *d);
    if (!d || pipe2(d->wake_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
        rfx_format(error, error_len, "cannot set up the X display: %s", strerror(errno));
        free(d);
        XCloseDisplay(dpy);
        return NULL;
    }
    d->dpy = dpy;
    d->root = RootWindow(dpy, screen);
    d->visual = visual.visual;
    d->depth = visual.depth;
    d->colormap = XCreateColormap(dpy, d->root, d->visual, AllocNone);

    XSetWindowAttributes attributes;
    memset(&attributes, 0, sizeof attributes);
    /* Opaque black: on a depth-32 visual a zero pixel would be transparent. */
    attributes.background_pixel = d->depth == 32 ? 0xff000000UL : 0;
    attributes.border_pixel = 0;
    attributes.colormap = d->colormap;
    attributes.bit_gravity = NorthWestGravity; /* keep the old frame while a resize repaints */
    /* PropertyChangeMask: the chunks of a drop's INCR answer arrive as new values of a property
     * of the window. */
    attributes.event_mask =
        KeyPressMask | ExposureMask | StructureNotifyMask | FocusChangeMask | PropertyChangeMask;
    d->window = XCreateWindow(dpy, d->root, 0, 0, (unsigned)width, (unsigned)height, 0, d->depth,
                              InputOutput, d->visual,
                              CWBackPixel | CWBorderPixel | CWColormap | CWBitGravity |
                                  CWEventMask,
                              &attributes);
    d->gc = XCreateGC(dpy, d->window, 0, NULL);

    d->wm_protocols = XInternAtom(dpy, "WM_PROTOCOLS", False);
    d->wm_delete_window = XInternAtom(dpy, "WM_DELETE_WINDOW", False);
    d->net_wm_name = XInternAtom(dpy, "_NET_WM_NAME", False);
    d->utf8_string = XInternAtom(dpy, "UTF8_STRING", False);
    d->net_wm_state = XInternAtom(dpy, "_NET_WM_STATE", False);
    d->net_wm_state_fullscreen = XInternAtom(dpy, "_NET_WM_STATE_FULLSCREEN", False);
    d->net_wm_bypass_compositor = XInternAtom(dpy, "_NET_WM_BYPASS_COMPOSITOR", False);
    XSetWMProtocols(dpy, d->window, &d->wm_delete_window, 1);
    rfx_init_xdnd(d);

    XClassHint class_hint = {.res_name = "riffle", .res_class = "Riffle"};
    XSetClassHint(dpy, d->window, &class_hint);
    XSizeHints *size_hints = XAllocSizeHints();
    if (size_hints) {
        size_hints->flags = PMinSize;
        size_hints->min_width = min_width;
        size_hints->min_height = min_height;
        XSetWMNormalHints(dpy, d->window, size_hints);
        XFree(size_hints);
    }
    rfx_set_title(d, title);
    rfx_set_ownership(d);
    char *startup_id = rfx_take_startup_id(d);

    rfx_init_shm(d);
    d->xi_enabled = rfx_init_xinput(d);
    if (!d->xi_enabled)
        XSelectInput(dpy, d->window,
                     attributes.event_mask | ButtonPressMask | ButtonReleaseMask |
                         PointerMotionMask);

    XMapWindow(dpy, d->window);
    rfx_wait_for_first_expose(d);
    if (startup_id) {
        /* Mapped (or given up on after the timeout, when the window manager keeps it iconic):
         * either way the launch is over and the busy cursor must end. */
        rfx_send_startup_remove(d, startup_id);
        free(startup_id);
    }
    return d;
}

void rfx_close(rfx_display *d) {
    free(d->event_data);
    free(d->drop_bytes);
    for (int i = 0; i < RFX_CURSOR_COUNT; i++)
        if (d->cursors[i] != None) XFreeCursor(d->dpy, d->cursors[i]);
    XFreeGC(d->dpy, d->gc);
    XDestroyWindow(d->dpy, d->window);
    XFreeColormap(d->dpy, d->colormap);
    XCloseDisplay(d->dpy);
    if (rfx_quit_wake_fd == d->wake_pipe[1]) rfx_quit_wake_fd = -1;
    close(d->wake_pipe[0]);
    close(d->wake_pipe[1]);
    free(d);
}

/* MARK: window manager */

void rfx_set_title(rfx_display *d, const char *title) {
    XChangeProperty(d->dpy, d->window, d->net_wm_name, d->utf8_string, 8, PropModeReplace,
                    (const unsigned char *)title, (int)strlen(title));
    XTextProperty text;
    char *list[1] = {(char *)title};
    int status = Xutf8TextListToTextProperty(d->dpy, list, 1, XStdICCTextStyle, &text);
    if (status == Success) {
        XSetWMName(d->dpy, d->window, &text);
    } else {
        /* Not convertible to STRING/COMPOUND_TEXT in this locale: UTF8_STRING, which every
         * current window manager reads. */
        XChangeProperty(d->dpy, d->window, XA_WM_NAME, d->utf8_string, 8, PropModeReplace,
                        (const unsigned char *)title, (int)strlen(title));
    }
    if (status >= Success && text.value) XFree(text.value);
    XFlush(d->dpy);
}

const char *rfx_resource_manager(rfx_display *d) { return XResourceManagerString(d->dpy); }

long rfx_icc_profile(rfx_display *d, unsigned char **profile) {
    *profile = NULL;
    int screen = DefaultScreen(d->dpy);
    char name[32];
    if (screen == 0)
        snprintf(name, sizeof name, "_ICC_PROFILE");
    else
        snprintf(name, sizeof name, "_ICC_PROFILE_%d", screen);
    Atom atom = XInternAtom(d->dpy, name, True);
    if (atom == None) return 0;
    Atom type;
    int format;
    unsigned long count = 0, after;
    unsigned char *value = NULL;
    int status = XGetWindowProperty(d->dpy, RootWindow(d->dpy, screen), atom, 0, LONG_MAX / 4, False,
                                    AnyPropertyType, &type, &format, &count, &after, &value);
    long length = 0;
    if (status == Success && value != NULL && format == 8 && count > 0) {
        *profile = malloc(count);
        if (*profile != NULL) {
            memcpy(*profile, value, count);
            length = (long)count;
        }
    }
    if (value != NULL) XFree(value);
    return length;
}

void rfx_set_fullscreen(rfx_display *d, int on) {
    /* EWMH: a mapped window asks the window manager through the root window. */
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xclient.type = ClientMessage;
    event.xclient.window = d->window;
    event.xclient.message_type = d->net_wm_state;
    event.xclient.format = 32;
    event.xclient.data.l[0] = on ? 1 : 0; /* _NET_WM_STATE_ADD / _NET_WM_STATE_REMOVE */
    event.xclient.data.l[1] = (long)d->net_wm_state_fullscreen;
    event.xclient.data.l[3] = 1; /* source: a normal application */
    XSendEvent(d->dpy, d->root, False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
    /* A fullscreen photo is one opaque frame a compositor only delays: EWMH's
     * _NET_WM_BYPASS_COMPOSITOR 1 asks it to step aside; out of fullscreen, no preference. */
    if (on) {
        long bypass = 1;
        XChangeProperty(d->dpy, d->window, d->net_wm_bypass_compositor, XA_CARDINAL, 32,
                        PropModeReplace, (const unsigned char *)&bypass, 1);
    } else {
        XDeleteProperty(d->dpy, d->window, d->net_wm_bypass_compositor);
    }
    XFlush(d->dpy);
}

/* The first of `names` the cursor theme has, else the core cursor font's `fallback`. Themes name
 * the hands differently: freedesktop's cursor-spec names ("grab", "grabbing") first, then the
 * older X11 and Qt names. */
static Cursor rfx_theme_cursor(Display *dpy, const char *const *names, unsigned fallback) {
    for (; *names; names++) {
        Cursor cursor = XcursorLibraryLoadCursor(dpy, *names);
        if (cursor != None) return cursor;
    }
    return XCreateFontCursor(dpy, fallback);
}

/* A cursor with no visible pixel: a 1x1 bitmap under an empty mask. */
static Cursor rfx_empty_cursor(rfx_display *d) {
    static const char nothing[1] = {0};
    Pixmap bitmap = XCreateBitmapFromData(d->dpy, d->window, nothing, 1, 1);
    XColor black;
    memset(&black, 0, sizeof black);
    Cursor cursor = XCreatePixmapCursor(d->dpy, bitmap, bitmap, &black, &black, 0, 0);
    XFreePixmap(d->dpy, bitmap);
    return cursor;
}

void rfx_set_cursor(rfx_display *d, rfx_cursor shape) {
    static const char *const arrow[] = {"default", "left_ptr", NULL};
    static const char *const open_hand[] = {"grab", "openhand", "hand1", NULL};
    static const char *const closed_hand[] = {"grabbing", "closedhand", "fleur", NULL};
    if (shape < 0 || shape >= RFX_CURSOR_COUNT) return;
    if (d->cursors[shape] == None) {
        switch (shape) {
        case RFX_CURSOR_ARROW: d->cursors[shape] = rfx_theme_cursor(d->dpy, arrow, XC_left_ptr); break;
        case RFX_CURSOR_OPEN_HAND: d->cursors[shape] = rfx_theme_cursor(d->dpy, open_hand, XC_hand2); break;
        case RFX_CURSOR_CLOSED_HAND: d->cursors[shape] = rfx_theme_cursor(d->dpy, closed_hand, XC_fleur); break;
        case RFX_CURSOR_HIDDEN: d->cursors[shape] = rfx_empty_cursor(d); break;
        default: break;
        }
    }
    XDefineCursor(d->dpy, d->window, d->cursors[shape]);
    XFlush(d->dpy);
}

void rfx_resize(rfx_display *d, int width, int height) {
    XResizeWindow(d->dpy, d->window, (unsigned)width, (unsigned)height);
    XFlush(d->dpy);
}

/* MARK: events */

static unsigned rfx_modifiers(unsigned state) {
    return (state & ShiftMask ? RFX_MOD_SHIFT : 0) | (state & ControlMask ? RFX_MOD_CONTROL : 0) |
           (state & Mod1Mask ? RFX_MOD_ALT : 0);
}

static rfx_event *rfx_push(rfx_display *d, rfx_event_type type, Time time) {
    rfx_event *event = &d->pending[d->pending_count++];
    memset(event, 0, sizeof *event);
    event->type = type;
    event->server_time = (uint32_t)time;
    if (type == RFX_EVENT_KEY || type == RFX_EVENT_BUTTON_PRESS || type == RFX_EVENT_BUTTON_RELEASE)
        d->last_user_time = time;
    return event;
}

/* Hands `data` (malloc'ed, `length` bytes, NUL-terminated past them) to `event`; the display
 * frees the previous event's. */
static void rfx_attach_data(rfx_display *d, rfx_event *event, char *data, long length) {
    free(d->event_data);
    d->event_data = data;
    event->data = data;
    event->data_length = data ? length : -1;
}

/* The names of `count` atoms, one a line (malloc'ed), into `event`. */
static void rfx_attach_atom_names(rfx_display *d, rfx_event *event, const Atom *atoms, long count) {
    size_t capacity = 1, length = 0;
    char **names = calloc((size_t)count + 1, sizeof *names);
    for (long i = 0; names && i < count; i++) {
        names[i] = atoms[i] == None ? NULL : XGetAtomName(d->dpy, atoms[i]);
        if (names[i]) capacity += strlen(names[i]) + 1;
    }
    char *text = malloc(capacity);
    if (text) {
        for (long i = 0; names && i < count; i++) {
            if (!names[i]) continue;
            size_t n = strlen(names[i]);
            memcpy(text + length, names[i], n);
            length += n;
            text[length++] = '\n';
        }
        text[length] = 0;
    }
    for (long i = 0; names && i < count; i++)
        if (names[i]) XFree(names[i]);
    free(names);
    rfx_attach_data(d, event, text, (long)length);
}

/* An XDND ClientMessage to the window: returns 1 when it was one (and was queued). The types of
 * an XdndEnter are its three atoms, or the source's XdndTypeList when bit 0 of l[1] says it
 * offers more. */
static int rfx_translate_xdnd(rfx_display *d, const XClientMessageEvent *message) {
    rfx_xdnd_message kind = message->message_type == d->xdnd_enter      ? RFX_XDND_ENTER
                            : message->message_type == d->xdnd_position ? RFX_XDND_POSITION
                            : message->message_type == d->xdnd_leave    ? RFX_XDND_LEAVE
                            : message->message_type == d->xdnd_drop     ? RFX_XDND_DROP
                                                                        : 0;
    if (!kind || message->format != 32) return 0;
    Window source = (Window)message->data.l[0];
    /* XdndPosition carries its time in l[3], XdndDrop in l[2] (version 1 on). */
    Time time = kind == RFX_XDND_POSITION ? (Time)message->data.l[3]
                : kind == RFX_XDND_DROP   ? (Time)message->data.l[2]
                                          : CurrentTime;
    rfx_event *event = rfx_push(d, RFX_EVENT_XDND, time);
    event->xdnd = kind;
    event->window = source;
    if (kind != RFX_XDND_ENTER) return 1;
    event->version = (int)((unsigned long)message->data.l[1] >> 24);
    if (message->data.l[1] & 1) {
        Atom type;
        int format;
        unsigned long count = 0, after;
        unsigned char *value = NULL;
        rfx_trap_begin(d->dpy);
        int status = XGetWindowProperty(d->dpy, source, d->xdnd_type_list, 0, 1024, False, XA_ATOM,
                                        &type, &format, &count, &after, &value);
        int failed = rfx_trap_end(d->dpy);
        if (status == Success && !failed && type == XA_ATOM && format == 32 && value)
            rfx_attach_atom_names(d, event, (const Atom *)(void *)value, (long)count);
        else
            rfx_attach_atom_names(d, event, NULL, 0);
        if (value) XFree(value);
    } else {
        Atom types[3] = {(Atom)message->data.l[2], (Atom)message->data.l[3], (Atom)message->data.l[4]};
        rfx_attach_atom_names(d, event, types, 3);
    }
    return 1;
}

/* Appends `count` bytes to the drop's INCR chunks, NUL-terminated past them; past
 * RFX_MAX_DROP_BYTES (or out of memory) the list is marked overflowed and its bytes dropped. */
static void rfx_append_drop_chunk(rfx_display *d, const unsigned char *bytes, long count) {
    if (d->drop_overflowed) return;
    if (d->drop_length + count > RFX_MAX_DROP_BYTES) {
        d->drop_overflowed = 1;
        return;
    }
    if (d->drop_length + count + 1 > d->drop_capacity) {
        long capacity = (d->drop_length + count + 1) * 2;
        char *grown = realloc(d->drop_bytes, (size_t)capacity);
        if (!grown) {
            d->drop_overflowed = 1;
            return;
        }
        d->drop_bytes = grown;
        d->drop_capacity = capacity;
    }
    memcpy(d->drop_bytes + d->drop_length, bytes, (size_t)count);
    d->drop_length += count;
    d->drop_bytes[d->drop_length] = 0;
}

/* Forgets the chunks of an INCR drop, read or not. */
static void rfx_reset_drop_chunks(rfx_display *d) {
    free(d->drop_bytes);
    d->drop_bytes = NULL;
    d->drop_length = d->drop_capacity = 0;
    d->drop_incremental = d->drop_overflowed = 0;
}

/* The drop's text/uri-list, answered into the window's RIFFLE_DROP property, read and deleted.
 * An INCR answer (a list larger than one request of the source's) queues nothing yet: deleting
 * its INCR property, as this read does, asks for the first chunk (ICCCM 2.7.2), and
 * rfx_translate_drop_chunk gathers them. */
static void rfx_translate_drop_data(rfx_display *d, const XSelectionEvent *notify) {
    rfx_reset_drop_chunks(d);
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after;
    unsigned char *value = NULL;
    /* Property None: the source refused the conversion. */
    int read = notify->property != None &&
               XGetWindowProperty(d->dpy, d->window, notify->property, 0, LONG_MAX / 4, True,
                                  AnyPropertyType, &type, &format, &count, &after,
                                  &value) == Success;
    if (read && type == d->incr) {
        if (value) XFree(value);
        d->drop_incremental = 1;
        return;
    }
    rfx_event *event = rfx_push(d, RFX_EVENT_DROP_DATA, notify->time);
    char *copy = NULL;
    if (read && value && format == 8) {
        copy = malloc(count + 1);
        if (copy) {
            memcpy(copy, value, count);
            copy[count] = 0;
        }
    }
    if (value) XFree(value);
    rfx_attach_data(d, event, copy, (long)count);
}

/* One chunk of an INCR drop, written into RIFFLE_DROP by the source: read and deleted (which
 * asks for the next); the zero-length end queues the whole list as RFX_EVENT_DROP_DATA. */
static void rfx_translate_drop_chunk(rfx_display *d, Time time) {
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after;
    unsigned char *value = NULL;
    int status = XGetWindowProperty(d->dpy, d->window, d->drop_property, 0, LONG_MAX / 4, True,
                                    AnyPropertyType, &type, &format, &count, &after, &value);
    if (status == Success && format == 8 && count > 0) rfx_append_drop_chunk(d, value, (long)count);
    if (value) XFree(value);
    /* A failed read ends the transfer too: waiting for chunks that may never come would leave
     * the drag source without its XdndFinished. */
    if (status == Success && count > 0) return;
    rfx_event *event = rfx_push(d, RFX_EVENT_DROP_DATA, time);
    int refused = status != Success || d->drop_overflowed;
    char *bytes = refused ? NULL : d->drop_bytes ? d->drop_bytes : calloc(1, 1);
    long length = refused ? 0 : d->drop_length;
    if (!refused) d->drop_bytes = NULL;
    rfx_reset_drop_chunks(d);
    rfx_attach_data(d, event, bytes, length);
}

/* Buttons 1-3, 8 and 9 (back, forward) become presses and releases; a press of 4-7 is one wheel
 * notch (4 up = away from the user, 5 down, 6 left, 7 right) and their releases mean nothing. */
static void rfx_push_button(rfx_display *d, int press, int button, double x, double y,
                            unsigned state, Time time) {
    d->last_x = x;
    d->last_y = y;
    if ((button >= 1 && button <= 3) || button == 8 || button == 9) {
        rfx_event *event = rfx_push(d, press ? RFX_EVENT_BUTTON_PRESS : RFX_EVENT_BUTTON_RELEASE,
                                    time);
        event->x = x;
        event->y = y;
        event->button = button;
        event->modifiers = rfx_modifiers(state);
    } else if (press && button >= 4 && button <= 7) {
        rfx_event *event = rfx_push(d, RFX_EVENT_SCROLL, time);
        event->x = x;
        event->y = y;
        event->modifiers = rfx_modifiers(state);
        event->scroll_dy = button == 4 ? 1 : button == 5 ? -1 : 0;
        event->scroll_dx = button == 7 ? 1 : button == 6 ? -1 : 0;
    }
}

/* Learns the scroll valuators of slave device `source` and their current values. */
static void rfx_load_scroll_valuators(rfx_display *d, int source) {
    d->scroll_source = source;
    d->scroll_count = 0;
    int count = 0;
    XIDeviceInfo *info = XIQueryDevice(d->dpy, source, &count);
    if (!info) return;
    for (int i = 0; i < info->num_classes && d->scroll_count < RFX_MAX_SCROLL_VALUATORS; i++) {
        if (info->classes[i]->type != XIScrollClass) continue;
        XIScrollClassInfo *scroll = (XIScrollClassInfo *)info->classes[i];
        rfx_scroll_valuator *v = &d->scroll[d->scroll_count++];
        v->number = scroll->number;
        v->horizontal = scroll->scroll_type == XIScrollTypeHorizontal;
        v->increment = scroll->increment;
        v->has_last = 0;
        for (int j = 0; j < info->num_classes; j++) {
            XIValuatorClassInfo *valuator = (XIValuatorClassInfo *)info->classes[j];
            if (valuator->type == XIValuatorClass && valuator->number == scroll->number) {
                v->last = valuator->value;
                v->has_last = 1;
            }
        }
    }
    XIFreeDeviceInfo(info);
}

/* Sums the scroll valuator changes in `event` into notches; returns whether any moved. */
static int rfx_scroll_delta(rfx_display *d, const XIDeviceEvent *event, double *dx, double *dy) {
    if (event->sourceid != d->scroll_source) rfx_load_scroll_valuators(d, event->sourceid);
    *dx = *dy = 0;
    int moved = 0;
    const double *value = event->valuators.values;
    for (int bit = 0; bit < event->valuators.mask_len * 8; bit++) {
        if (!XIMaskIsSet(event->valuators.mask, bit)) continue;
        double now = *value++;
        for (int i = 0; i < d->scroll_count; i++) {
            rfx_scroll_valuator *v = &d->scroll[i];
            if (v->number != bit) continue;
            if (v->has_last && v->increment != 0 && now != v->last) {
                /* A positive increment scrolls down or right (buttons 5 and 7): away from
                 * the user is +y, so the vertical sign flips. */
                double notches = (now - v->last) / v->increment;
                if (v->horizontal)
                    *dx += notches;
                else
                    *dy -= notches;
                moved = 1;
            }
            v->last = now;
            v->has_last = 1;
        }
    }
    return moved;
}

static void rfx_translate_xinput(rfx_display *d, XGenericEventCookie *cookie) {
    switch (cookie->evtype) {
    case XI_ButtonPress:
    case XI_ButtonRelease: {
        const XIDeviceEvent *event = cookie->data;
        /* The server also turns scroll valuator motion into wheel presses for old clients;
         * the valuators are already counted. */
        if (event->flags & XIPointerEmulated) return;
        rfx_push_button(d, cookie->evtype == XI_ButtonPress, event->detail, event->event_x,
                        event->event_y, (unsigned)event->mods.effective, event->time);
        return;
    }
    case XI_Motion: {
        const XIDeviceEvent *event = cookie->data;
        double dx, dy;
        int scrolled = rfx_scroll_delta(d, event, &dx, &dy);
        unsigned modifiers = rfx_modifiers((unsigned)event->mods.effective);
        if (!scrolled || event->event_x != d->last_x || event->event_y != d->last_y) {
            rfx_event *move = rfx_push(d, RFX_EVENT_MOTION, event->time);
            move->x = event->event_x;
            move->y = event->event_y;
            move->modifiers = modifiers;
        }
        if (scrolled) {
            rfx_event *scroll = rfx_push(d, RFX_EVENT_SCROLL, event->time);
            scroll->x = event->event_x;
            scroll->y = event->event_y;
            scroll->modifiers = modifiers;
            scroll->scroll_dx = dx;
            scroll->scroll_dy = dy;
            scroll->scroll_precise = 1;
        }
        d->last_x = event->event_x;
        d->last_y = event->event_y;
        return;
    }
    case XI_Enter:
    case XI_DeviceChanged:
        d->scroll_source = 0; /* re-read classes and values at the next motion */
        return;
#ifdef XI_GesturePinchBegin
    case XI_GesturePinchBegin:
    case XI_GesturePinchUpdate:
    case XI_GesturePinchEnd: {
        const XIGesturePinchEvent *event = cookie->data;
        rfx_event *pinch = rfx_push(d, RFX_EVENT_PINCH, event->time);
        pinch->x = event->event_x;
        pinch->y = event->event_y;
        pinch->modifiers = rfx_modifiers((unsigned)event->mods.effective);
        pinch->pinch_scale = event->scale;
        pinch->phase = cookie->evtype == XI_GesturePinchBegin    ? RFX_PHASE_BEGIN
                       : cookie->evtype == XI_GesturePinchUpdate ? RFX_PHASE_UPDATE
                                                                 : RFX_PHASE_END;
        return;
    }
#endif
    default:
        return;
    }
}

static void rfx_translate(rfx_display *d, XEvent *event) {
    switch (event->type) {
    case ButtonPress:
    case ButtonRelease:
        rfx_push_button(d, event->type == ButtonPress, (int)event->xbutton.button,
                        event->xbutton.x, event->xbutton.y, event->xbutton.state,
                        event->xbutton.time);
        return;
    case MotionNotify: {
        rfx_event *move = rfx_push(d, RFX_EVENT_MOTION, event->xmotion.time);
        move->x = d->last_x = event->xmotion.x;
        move->y = d->last_y = event->xmotion.y;
        move->modifiers = rfx_modifiers(event->xmotion.state);
        return;
    }
    case KeyPress: {
        /* XLookupString applies Shift and the keyboard group: Shift+= gives "plus". */
        KeySym keysym = NoSymbol;
        char text[32];
        XLookupString(&event->xkey, text, sizeof text, &keysym, NULL);
        const char *name = keysym == NoSymbol ? NULL : XKeysymToString(keysym);
        if (!name) return;
        rfx_event *key = rfx_push(d, RFX_EVENT_KEY, event->xkey.time);
        snprintf(key->keysym_name, sizeof key->keysym_name, "%s", name);
        key->modifiers = rfx_modifiers(event->xkey.state);
        return;
    }
    case Expose:
        if (event->xexpose.count == 0) rfx_push(d, RFX_EVENT_EXPOSE, CurrentTime);
        return;
    case ConfigureNotify: {
        if (event->xconfigure.window != d->window) return;
        rfx_event *configure = rfx_push(d, RFX_EVENT_CONFIGURE, CurrentTime);
        configure->width = event->xconfigure.width;
        configure->height = event->xconfigure.height;
        return;
    }
    case ClientMessage:
        if (rfx_translate_xdnd(d, &event->xclient)) return;
        if (event->xclient.message_type == d->wm_protocols &&
            (Atom)event->xclient.data.l[0] == d->wm_delete_window)
            rfx_push(d, RFX_EVENT_CLOSE, CurrentTime);
        return;
    case FocusIn:
    case FocusOut:
        /* Only the window's own focus matters: not the pointer's (NotifyPointer) nor a child's
         * (NotifyInferior), and not the momentary loss while another client grabs the keyboard
         * (NotifyGrab / NotifyUngrab: a window manager's Alt+Tab, a screenshot tool). */
        if (event->xfocus.detail == NotifyPointer || event->xfocus.detail == NotifyInferior ||
            event->xfocus.mode == NotifyGrab || event->xfocus.mode == NotifyUngrab)
            return;
        rfx_push(d, RFX_EVENT_FOCUS, CurrentTime)->focused = event->type == FocusIn;
        return;
    case MappingNotify:
        XRefreshKeyboardMapping(&event->xmapping);
        return;
    case SelectionNotify:
        if (event->xselection.selection == d->xdnd_selection) rfx_translate_drop_data(d, &event->xselection);
        return;
    case SelectionRequest: {
        const XSelectionRequestEvent *asked = &event->xselectionrequest;
        rfx_event *request = rfx_push(d, RFX_EVENT_SELECTION_REQUEST, asked->time);
        request->request = (rfx_selection_request){
            .requestor = asked->requestor,
            .selection = asked->selection,
            .target = asked->target,
            /* ICCCM 2.2: an obsolete client's None means "the target's name". */
            .property = asked->property == None ? asked->target : asked->property,
            .time = (uint32_t)asked->time,
        };
        rfx_attach_atom_names(d, request, &asked->target, 1);
        /* One name without its line end. */
        if (request->data_length > 0) ((char *)d->event_data)[--request->data_length] = 0;
        return;
    }
    case SelectionClear:
        if (event->xselectionclear.selection == d->clipboard)
            rfx_push(d, RFX_EVENT_SELECTION_CLEAR, event->xselectionclear.time);
        return;
    case PropertyNotify:
        if (event->xproperty.window == d->window) {
            if (d->drop_incremental && event->xproperty.atom == d->drop_property &&
                event->xproperty.state == PropertyNewValue)
                rfx_translate_drop_chunk(d, event->xproperty.time);
            return;
        }
        if (event->xproperty.state == PropertyDelete) {
            rfx_event *deleted = rfx_push(d, RFX_EVENT_PROPERTY_DELETED, event->xproperty.time);
            deleted->window = event->xproperty.window;
            deleted->property = event->xproperty.atom;
        }
        return;
    case GenericEvent:
        if (!XGetEventData(d->dpy, &event->xcookie)) return;
        if (d->xi_enabled && event->xcookie.extension == d->xi_opcode) {
            rfx_translate_xinput(d, &event->xcookie);
        } else if (d->generic_handler) {
            d->generic_handler(d->generic_context, &event->xcookie);
        }
        XFreeEventData(d->dpy, &event->xcookie);
        return;
    default:
        if (d->shm_completion_type && event->type == d->shm_completion_type &&
            d->puts_in_flight > 0)
            d->puts_in_flight--;
        return;
    }
}

int rfx_next_event(rfx_display *d, rfx_event *out) {
    while (d->pending_count == 0) {
        if (XPending(d->dpy) == 0) return 0;
        XEvent event;
        XNextEvent(d->dpy, &event);
        rfx_translate(d, &event);
    }
    *out = d->pending[0];
    d->pending_count--;
    memmove(&d->pending[0], &d->pending[1], (size_t)d->pending_count * sizeof d->pending[0]);
    return 1;
}

void rfx_wait(rfx_display *d, int timeout_ms) {
    /* Events Xlib has already read off the socket never make the fd readable again: polling
     * without this check would sleep on top of them. XPending also flushes our requests. */
    if (d->pending_count > 0 || XPending(d->dpy) > 0) return;
    struct pollfd fds[2] = {
        {.fd = ConnectionNumber(d->dpy), .events = POLLIN},
        {.fd = d->wake_pipe[0], .events = POLLIN},
    };
    /* EINTR just returns early; the caller's loop waits again. */
    poll(fds, 2, timeout_ms);
    char drain[64];
    while (read(d->wake_pipe[0], drain, sizeof drain) > 0) {
    }
}

void rfx_wake(rfx_display *d) {
    /* Non-blocking: a full pipe already holds a wake-up. */
    ssize_t written = write(d->wake_pipe[1], "w", 1);
    (void)written;
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

/* MARK: images */

static int rfx_host_byte_order(void) {
    const uint32_t one = 1;
    return *(const unsigned char *)&one ? LSBFirst : MSBFirst;
}

static void rfx_report_fallback(rfx_display *d, const char *reason) {
    d->shm_usable = 0;
    if (d->shm_fallback_reported) return;
    d->shm_fallback_reported = 1;
    fprintf(stderr, "riffle: MIT-SHM unavailable (%s); drawing with XPutImage\n", reason);
}

/* Returns 1 with a shared image in `out`, or 0 with the reason in `reason`. */
static int rfx_create_shared(rfx_display *d, int width, int height, rfx_image *out,
                             char *reason, size_t reason_len) {
    XImage *image = XShmCreateImage(d->dpy, d->visual, (unsigned)d->depth, ZPixmap, NULL,
                                    &out->shm, (unsigned)width, (unsigned)height);
    if (!image) {
        snprintf(reason, reason_len, "XShmCreateImage failed");
        return 0;
    }
    out->shm.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * (size_t)height,
                            IPC_CREAT | 0600);
    if (out->shm.shmid < 0) {
        snprintf(reason, reason_len, "shmget: %s", strerror(errno));
        XDestroyImage(image);
        return 0;
    }
    out->shm.shmaddr = image->data = shmat(out->shm.shmid, NULL, 0);
    if (out->shm.shmaddr == (char *)-1) {
        snprintf(reason, reason_len, "shmat: %s", strerror(errno));
        shmctl(out->shm.shmid, IPC_RMID, NULL);
        image->data = NULL;
        XDestroyImage(image);
        return 0;
    }
    out->shm.readOnly = False;
    rfx_trap_begin(d->dpy);
    XShmAttach(d->dpy, &out->shm);
    int code = rfx_trap_end(d->dpy);
    /* The server has attached (or failed to): the segment now lives exactly as long as the
     * attachments do, even if this process dies. */
    shmctl(out->shm.shmid, IPC_RMID, NULL);
    if (code != 0) {
        snprintf(reason, reason_len, "XShmAttach: %s", rfx_trap_text);
        shmdt(out->shm.shmaddr);
        image->data = NULL;
        XDestroyImage(image);
        return 0;
    }
    out->image = image;
    out->shared = 1;
    return 1;
}

rfx_image *rfx_image_create(rfx_display *d, int width, int height, char *error, int error_len) {
    rfx_image *out = calloc(1, sizeof *out);
    if (!out) {
        rfx_format(error, error_len, "out of memory for a %dx%d frame", width, height);
        return NULL;
    }
    if (d->shm_usable) {
        char reason[160];
        if (rfx_create_shared(d, width, height, out, reason, sizeof reason)) return out;
        rfx_report_fallback(d, reason);
    } else {
        rfx_report_fallback(d, d->shm_missing);
    }
    XImage *image = XCreateImage(d->dpy, d->visual, (unsigned)d->depth, ZPixmap, 0, NULL,
                                 (unsigned)width, (unsigned)height, 32, 0);
    char *data = image ? calloc((size_t)image->bytes_per_line, (size_t)height) : NULL;
    if (!data) {
        rfx_format(error, error_len, "out of memory for a %dx%d frame", width, height);
        if (image) XDestroyImage(image);
        free(out);
        return NULL;
    }
    image->data = data;
    /* The app writes host-order words; XPutImage swaps them if the server wants the other
     * order (shared images never need that: the server is on this host). */
    image->byte_order = rfx_host_byte_order();
    out->image = image;
    return out;
}

void rfx_image_destroy(rfx_display *d, rfx_image *image) {
    if (image->shared) {
        /* Requests run in order, so a put still in flight reads the segment before the
         * server detaches it; no need to wait for its completion here. */
        XShmDetach(d->dpy, &image->shm);
        XFlush(d->dpy);
        shmdt(image->shm.shmaddr);
        image->image->data = NULL;
    }
    XDestroyImage(image->image); /* frees client-owned data */
    free(image);
}

uint32_t *rfx_image_pixels(rfx_image *image) { return (uint32_t *)(void *)image->image->data; }

int rfx_image_row_pixels(rfx_image *image) { return image->image->bytes_per_line / 4; }

int rfx_image_is_shared(rfx_image *image) { return image->shared; }

void rfx_image_put(rfx_display *d, rfx_image *image) {
    XImage *x = image->image;
    if (image->shared) {
        XShmPutImage(d->dpy, d->window, d->gc, x, 0, 0, 0, 0, (unsigned)x->width,
                     (unsigned)x->height, True);
        d->puts_in_flight++;
    } else {
        XPutImage(d->dpy, d->window, d->gc, x, 0, 0, 0, 0, (unsigned)x->width,
                  (unsigned)x->height);
    }
    XFlush(d->dpy);
}

static Bool rfx_is_completion(Display *dpy, XEvent *event, XPointer display) {
    (void)dpy;
    return event->type == ((rfx_display *)(void *)display)->shm_completion_type;
}

void rfx_image_wait(rfx_display *d) {
    while (d->puts_in_flight > 0) {
        XEvent event;
        XIfEvent(d->dpy, &event, rfx_is_completion, (XPointer)d);
        d->puts_in_flight--;
    }
}

int rfx_capture(rfx_display *d, uint32_t *pixels, int width, int height, int row_pixels,
                char *error, int error_len) {
    rfx_trap_begin(d->dpy);
    XImage *image = XGetImage(d->dpy, d->window, 0, 0, (unsigned)width, (unsigned)height,
                              AllPlanes, ZPixmap);
    int code = rfx_trap_end(d->dpy);
    if (!image || code != 0) {
        rfx_format(error, error_len, "XGetImage of the %dx%d window failed: %s", width, height,
                   code ? rfx_trap_text : "no image");
        if (image) XDestroyImage(image);
        return -1;
    }
    /* XGetPixel undoes whatever byte order and padding the server chose; the visual's masks
     * were checked to be 0xff0000, 0xff00, 0xff at open. */
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            pixels[(size_t)y * (size_t)row_pixels + (size_t)x] =
                0xff000000u | ((uint32_t)XGetPixel(image, x, y) & 0xffffffu);
    XDestroyImage(image);
    return 0;
}

/* MARK: drag and drop */

void rfx_send_client_message(Display *dpy, Window from, Window to, Atom type, long l1, long l2, long l3, long l4) {
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xclient.type = ClientMessage;
    event.xclient.window = to;
    event.xclient.message_type = type;
    event.xclient.format = 32;
    event.xclient.data.l[0] = (long)from;
    event.xclient.data.l[1] = l1;
    event.xclient.data.l[2] = l2;
    event.xclient.data.l[3] = l3;
    event.xclient.data.l[4] = l4;
    XSendEvent(dpy, to, False, NoEventMask, &event);
    XFlush(dpy);
}

/* A ClientMessage of `type` from the window to `to`, l[0] the window (every XDND message names
 * its sender there). */
static void rfx_send_to(rfx_display *d, Window to, Atom type, long l1, long l2, long l3, long l4) {
    rfx_send_client_message(d->dpy, d->window, to, type, l1, l2, l3, l4);
}

void rfx_xdnd_send_status(rfx_display *d, unsigned long source, int accept) {
    /* l[1] bit 0: accept; bit 1 clear and an empty rectangle (l[2], l[3]): a position for every
     * move. l[4]: the action the drop will take. */
    rfx_send_to(d, (Window)source, d->xdnd_status, accept ? 1 : 0, 0, 0,
                accept ? (long)d->xdnd_action_copy : (long)None);
}

void rfx_xdnd_send_finished(rfx_display *d, unsigned long source, int success) {
    rfx_send_to(d, (Window)source, d->xdnd_finished, success ? 1 : 0,
                success ? (long)d->xdnd_action_copy : (long)None, 0, 0);
}

void rfx_xdnd_request_uri_list(rfx_display *d, uint32_t time) {
    XConvertSelection(d->dpy, d->xdnd_selection, d->uri_list, d->drop_property, d->window,
                      (Time)time);
    XFlush(d->dpy);
}

/* MARK: the clipboard */

int rfx_clipboard_claim(rfx_display *d, uint32_t *time) {
    *time = (uint32_t)d->last_user_time;
    XSetSelectionOwner(d->dpy, d->clipboard, d->window, d->last_user_time);
    return XGetSelectionOwner(d->dpy, d->clipboard) == d->window;
}

long rfx_max_property_bytes(rfx_display *d) {
    long units = XExtendedMaxRequestSize(d->dpy);
    if (units == 0) units = XMaxRequestSize(d->dpy);
    /* ChangeProperty's header is 24 bytes; a big request adds its 4-byte extended length. */
    return units * 4 - 28;
}

static void rfx_notify_requestor(rfx_display *d, const rfx_selection_request *request, Atom property) {
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xselection.type = SelectionNotify;
    event.xselection.requestor = (Window)request->requestor;
    event.xselection.selection = (Atom)request->selection;
    event.xselection.target = (Atom)request->target;
    event.xselection.property = property;
    event.xselection.time = (Time)request->time;
    XSendEvent(d->dpy, (Window)request->requestor, False, NoEventMask, &event);
    XFlush(d->dpy);
}

void rfx_selection_reply(rfx_display *d, const rfx_selection_request *request,
                         const char *type_name, int format, const void *data, long count) {
    /* The requestor may be gone already: its BadWindow is not the viewer's error. */
    rfx_trap_begin(d->dpy);
    XChangeProperty(d->dpy, (Window)request->requestor, (Atom)request->property,
                    XInternAtom(d->dpy, type_name, False), format, PropModeReplace,
                    (const unsigned char *)data, (int)count);
    int failed = rfx_trap_end(d->dpy);
    rfx_notify_requestor(d, request, failed ? None : (Atom)request->property);
}

void rfx_selection_reply_atoms(rfx_display *d, const rfx_selection_request *request,
                               const char *const *names, int count) {
    long *atoms = calloc((size_t)count + 1, sizeof *atoms);
    if (!atoms) {
        rfx_selection_refuse(d, request);
        return;
    }
    for (int i = 0; i < count; i++) atoms[i] = (long)XInternAtom(d->dpy, names[i], False);
    rfx_selection_reply(d, request, "ATOM", 32, atoms, count);
    free(atoms);
}

void rfx_selection_refuse(rfx_display *d, const rfx_selection_request *request) {
    rfx_notify_requestor(d, request, None);
}

void rfx_selection_begin_incremental(rfx_display *d, const rfx_selection_request *request,
                                     long total_bytes) {
    /* Watch before notifying: the requestor's deletion of the INCR property starts the chunks. */
    rfx_trap_begin(d->dpy);
    XSelectInput(d->dpy, (Window)request->requestor, PropertyChangeMask);
    long size = total_bytes;
    XChangeProperty(d->dpy, (Window)request->requestor, (Atom)request->property, d->incr, 32,
                    PropModeReplace, (const unsigned char *)&size, 1);
    int failed = rfx_trap_end(d->dpy);
    rfx_notify_requestor(d, request, failed ? None : (Atom)request->property);
}

void rfx_property_write(rfx_display *d, unsigned long window, unsigned long property,
                        const char *type_name, const void *bytes, long length) {
    rfx_trap_begin(d->dpy);
    XChangeProperty(d->dpy, (Window)window, (Atom)property, XInternAtom(d->dpy, type_name, False),
                    8, PropModeReplace, (const unsigned char *)bytes, (int)length);
    if (length == 0) XSelectInput(d->dpy, (Window)window, NoEventMask);
    rfx_trap_end(d->dpy);
    XFlush(d->dpy);
}
