/* What the shim's C files share with each other, and Swift never sees. */
#ifndef RIFFLE_X11_INTERNAL_H
#define RIFFLE_X11_INTERNAL_H

#include "CRiffleX11.h"
#include <X11/Xlib.h>

Display *rfx_display_xlib(rfx_display *display);
Window rfx_display_window(rfx_display *display);
int rfx_display_depth(rfx_display *display);
/* 1 when MIT-SHM can be used on this connection (a local server that attaches segments). */
int rfx_display_shares_memory(rfx_display *display);

/* Sends `to` a 32-bit ClientMessage of `type` whose l[0] is `from` (XDND messages name their
 * sender there) and l[1..4] the rest, and flushes. */
void rfx_send_client_message(Display *dpy, Window from, Window to, Atom type, long l1, long l2, long l3, long l4);

/* Called by rfx_next_event for every GenericEvent of an extension other than XInput 2, with
 * its cookie's data fetched; returns 1 when it used the event. */
typedef int (*rfx_generic_event_handler)(void *context, XGenericEventCookie *cookie);
void rfx_display_set_generic_handler(rfx_display *display, rfx_generic_event_handler handler,
                                     void *context);

/* Milliseconds of CLOCK_MONOTONIC, for the shim's bounded waits. */
long rfx_monotonic_ms(void);

/* faults.c: Xlib's handlers, installed once the first display opens; protocol errors raised
 * between rfx_trap_begin and rfx_trap_end are recorded, not reported, and rfx_trap_end returns
 * the first one's code (0: none). */
void rfx_install_error_handlers(void);
void rfx_trap_begin(Display *dpy);
int rfx_trap_end(Display *dpy);
/* The text of the error rfx_trap_end last returned the code of. */
const char *rfx_trap_message(void);
/* Formats into `out` of `len` bytes (nothing when `out` is NULL). */
void rfx_format(char *out, int len, const char *format, ...);
/* A closing display's wake pipe stops being the quit signals' (when it was). */
void rfx_release_quit_signals(rfx_display *display);

/* The connection and window behind an rfx_display, shared by the shim's files (window.c opens
 * it, events.c translates its input, images.c draws into it, selections.c answers for it). */
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
    /* Keycodes down now (one bit each): a press of one already down is its auto-repeat. */
    unsigned char keys_down[32];
    /* The last key release: a press of the same key at the same server time is its repeat
     * when the server sends repeats as release-press pairs. */
    unsigned last_release_keycode;
    Time last_release_time;
    Window root;
    Window window;
    Visual *visual;
    int depth;
    Colormap colormap;
    GC gc;
    Atom wm_protocols, wm_delete_window, net_wm_name, utf8_string, net_wm_state,
        net_wm_state_fullscreen, net_wm_bypass_compositor;
    /* The size asked for when the window was opened fullscreen (made the screen's size): the
     * size it takes when it first leaves fullscreen. 0 once it has, or when it opened windowed. */
    int windowed_width, windowed_height;
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

#endif
