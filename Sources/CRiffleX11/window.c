/* The window: opening the connection and the window, desktop integration (startup notification,
 * XDND awareness), and what the window manager is asked (title, fullscreen, cursors, size). */
#define _GNU_SOURCE
#include "CRiffleX11.h"
#include "internal.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xcursor/Xcursor.h>
#include <X11/XKBlib.h>
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

Display *rfx_display_xlib(rfx_display *d) { return d->dpy; }
Window rfx_display_window(rfx_display *d) { return d->window; }
int rfx_display_depth(rfx_display *d) { return d->depth; }
int rfx_display_shares_memory(rfx_display *d) { return d->shm_usable; }

void rfx_display_set_generic_handler(rfx_display *d, rfx_generic_event_handler handler,
                                     void *context) {
    d->generic_handler = handler;
    d->generic_context = context;
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

rfx_display *rfx_open(const char *display_name, int *width, int *height, int min_width, int min_height,
                      int fullscreen, const char *title, char *error, int error_len) {
    rfx_install_error_handlers();
    const char *name = XDisplayName(display_name);
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) {
        if (name && *name)
            rfx_format(error, error_len, "cannot open X display %s — is DISPLAY set?", name);
        else
            rfx_format(error, error_len, "cannot open an X display — DISPLAY is not set");
        return NULL;
    }
    /* A held key's auto-repeat as presses alone, without the release X otherwise sends before
     * each (XKB's detectable auto-repeat, XKBlib.pdf §10.3.11): a press of a key already down is
     * then its repeat (`keys_down`). Without XKB each repeat's release comes at the same server
     * time as its press, which tells it too (events.c). */
    XkbSetDetectableAutoRepeat(dpy, True, NULL);
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
        KeyPressMask | KeyReleaseMask | ExposureMask | StructureNotifyMask | FocusChangeMask | PropertyChangeMask;
    if (fullscreen) {
        d->windowed_width = *width;
        d->windowed_height = *height;
        *width = DisplayWidth(dpy, screen);
        *height = DisplayHeight(dpy, screen);
    }
    d->window = XCreateWindow(dpy, d->root, 0, 0, (unsigned)*width, (unsigned)*height, 0, d->depth,
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
    if (fullscreen) {
        /* EWMH: before mapping, a client states its initial state in _NET_WM_STATE itself; a
         * mapped window asks through the root window (rfx_set_fullscreen). */
        XChangeProperty(dpy, d->window, d->net_wm_state, XA_ATOM, 32, PropModeReplace,
                        (const unsigned char *)&d->net_wm_state_fullscreen, 1);
        long bypass = 1;
        XChangeProperty(dpy, d->window, d->net_wm_bypass_compositor, XA_CARDINAL, 32,
                        PropModeReplace, (const unsigned char *)&bypass, 1);
    }

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
    /* A window manager may have given the window another size as it mapped it (a tiling one
     * always does; a stacking one keeps it inside the screen's work area): the size it has. */
    XWindowAttributes mapped;
    if (XGetWindowAttributes(dpy, d->window, &mapped) && mapped.width > 0 && mapped.height > 0) {
        *width = mapped.width;
        *height = mapped.height;
    }
    if (fullscreen && (*width != DisplayWidth(dpy, screen) || *height != DisplayHeight(dpy, screen))) {
        /* Mapped but not fullscreen: the window manager did not take the state the window gave
         * before mapping (openbox, once in a loaded run of the suite, framed such a window and
         * kept it framed). Ask again as a mapped window does; the resize that follows is an
         * ordinary one. (On a screen of several monitors, fullscreen may be one monitor's size:
         * asking again is then a no-op.) */
        rfx_set_fullscreen(d, 1);
    }
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
    rfx_release_quit_signals(d);
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
        /* Opened fullscreen, the window's own size was the screen's: the window manager would
         * restore that. The size asked for instead, after the state change (requests reach it
         * in order). */
        if (d->windowed_width > 0 && d->windowed_height > 0) {
            XResizeWindow(d->dpy, d->window, (unsigned)d->windowed_width, (unsigned)d->windowed_height);
            d->windowed_width = d->windowed_height = 0;
        }
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
