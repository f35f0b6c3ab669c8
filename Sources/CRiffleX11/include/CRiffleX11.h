/* CRiffleX11: prefixed C shim over Xlib, MIT-SHM and XInput2 (rfx_).
 *
 * Swift never sees an Xlib struct or an XEvent union: it holds two opaque handles (a display
 * connection with its one window, and an image the frames are drawn into) and receives input
 * as flat `rfx_event` values. All functions are for the thread that opened the display, except
 * `rfx_wake`, which any thread may call.
 */
#ifndef CRIFFLEX11_H
#define CRIFFLEX11_H

#include <stdint.h>

/* An X connection and the one window it shows (opaque). */
typedef struct rfx_display rfx_display;

/* A window-sized 32-bit image the app draws into: an MIT-SHM segment when the server can map
 * it, otherwise memory the client owns and sends with XPutImage (opaque). */
typedef struct rfx_image rfx_image;

/* What an `rfx_event` reports. */
typedef enum rfx_event_type {
    RFX_EVENT_BUTTON_PRESS = 1, /* button 1-3, 8, 9 down: x, y, button, modifiers, server_time */
    RFX_EVENT_BUTTON_RELEASE,   /* button 1-3 up: same fields */
    RFX_EVENT_MOTION,           /* pointer moved: x, y, modifiers, server_time */
    RFX_EVENT_SCROLL,           /* x, y, scroll_dx/dy, scroll_precise, modifiers, server_time */
    RFX_EVENT_PINCH,            /* x, y (centre), pinch_scale, phase, server_time */
    RFX_EVENT_KEY,              /* key press: keysym_name, modifiers, key_repeat, server_time */
    RFX_EVENT_CONFIGURE,        /* window geometry changed (maybe only moved): width, height */
    RFX_EVENT_EXPOSE,           /* the last of a run of Expose events */
    RFX_EVENT_CLOSE,            /* the window manager sent WM_DELETE_WINDOW */
    RFX_EVENT_FOCUS,            /* the window gained or lost the keyboard focus: focused */
    RFX_EVENT_XDND,             /* an XDND message from a drag source: xdnd, window (the source),
                                   version, server_time; for ENTER data is the offered types'
                                   names, one a line */
    RFX_EVENT_DROP_DATA,        /* the drop's text/uri-list arrived, at once or by INCR: data,
                                   data_length (-1: the source refused, or an INCR list passed
                                   64 MiB) */
    RFX_EVENT_SELECTION_REQUEST,/* a client asks for the CLIPBOARD Riffle owns: request, data is
                                   the target's name */
    RFX_EVENT_SELECTION_CLEAR,  /* another client took the CLIPBOARD */
    RFX_EVENT_PROPERTY_DELETED  /* a requestor deleted a property Riffle wrote: window, property
                                   (the next step of an INCR transfer) */
} rfx_event_type;

/* Which XDND message an RFX_EVENT_XDND carries (https://www.freedesktop.org/wiki/Specifications/XDND/). */
typedef enum rfx_xdnd_message {
    RFX_XDND_ENTER = 1,
    RFX_XDND_POSITION,
    RFX_XDND_LEAVE,
    RFX_XDND_DROP
} rfx_xdnd_message;

/* A SelectionRequest's fields, handed back to the rfx_selection_* replies unchanged. */
typedef struct rfx_selection_request {
    unsigned long requestor; /* the asking client's window */
    unsigned long selection; /* atom */
    unsigned long target;    /* atom */
    unsigned long property;  /* atom the answer goes into; the target when the client gave None */
    uint32_t time;
} rfx_selection_request;

/* Where a pinch gesture is in its life. */
typedef enum rfx_phase {
    RFX_PHASE_BEGIN = 1,
    RFX_PHASE_UPDATE,
    RFX_PHASE_END
} rfx_phase;

/* Modifier bits in `rfx_event.modifiers`. */
enum {
    RFX_MOD_SHIFT = 1 << 0,   /* ShiftMask */
    RFX_MOD_CONTROL = 1 << 1, /* ControlMask */
    RFX_MOD_ALT = 1 << 2      /* Mod1Mask */
};

/* One input or window event; only the fields its type names are meaningful (the rest are 0). */
typedef struct rfx_event {
    rfx_event_type type;
    double x, y;           /* window pixels, origin top-left (subpixel with XInput 2) */
    int button;            /* 1 left, 2 middle, 3 right, 8 back, 9 forward */
    unsigned modifiers;    /* RFX_MOD_* */
    uint32_t server_time;  /* X server time in milliseconds; wraps at 2^32 */
    char keysym_name[64];  /* XKeysymToString of the XLookupString keysym ("plus", "Right") */
    int key_repeat;        /* 1 for the auto-repeat of a key held down, 0 for a press */
    int width, height;     /* new window size in pixels */
    double scroll_dx;      /* notches, > 0 right (button 7) */
    double scroll_dy;      /* notches, > 0 away from the user (button 4) */
    int scroll_precise;    /* 1: from an XInput 2 scroll valuator (fractional notches) */
    double pinch_scale;    /* scale since the gesture began (1 at begin) */
    rfx_phase phase;
    int focused;           /* 1: the window has the keyboard focus now, 0: it lost it */
    rfx_xdnd_message xdnd;
    int version;           /* XDND protocol version the source speaks (ENTER) */
    unsigned long window;  /* XDND: the source window; PROPERTY_DELETED: the requestor */
    unsigned long property;/* PROPERTY_DELETED: the atom deleted */
    rfx_selection_request request;
    const char *data;      /* owned by the display, valid until the next rfx_next_event */
    long data_length;
} rfx_event;

/* Opens the display named `display_name` (NULL: the one $DISPLAY names), creates a `*width` x `*height` window titled `title`
 * (UTF-8) with a `min_width` x `min_height` minimum size, maps it and waits (up to 2 s) for its
 * first Expose, which stays queued; `*width` and `*height` are then the size the window has (a
 * window manager may have changed it). With `fullscreen` the window is made the screen's size
 * instead and is mapped already in EWMH's
 * _NET_WM_STATE_FULLSCREEN (with _NET_WM_BYPASS_COMPOSITOR 1), so a window manager shows it
 * fullscreen from its first frame, never at another size first; without one it covers the
 * screen. Leaving fullscreen the first time (rfx_set_fullscreen) then gives it the size asked
 * for. The window carries WM_CLASS riffle/Riffle, _NET_WM_PID,
 * WM_CLIENT_MACHINE and _NET_WM_WINDOW_TYPE_NORMAL; when DESKTOP_STARTUP_ID is set, it is moved
 * from the environment to the window's _NET_STARTUP_ID and the launch is ended (startup
 * notification's "remove" message) once the window has mapped. Installs an X error handler that reports and continues and
 * an IO error handler that reports the lost connection and exits. On failure returns NULL and
 * writes a one-line reason into `error`. */
rfx_display *rfx_open(const char *display_name, int *width, int *height, int min_width, int min_height,
                      int fullscreen, const char *title, char *error, int error_len);

/* Destroys the window and closes the connection; every image must be destroyed first. */
void rfx_close(rfx_display *display);

/* Sets _NET_WM_NAME (UTF8_STRING) and WM_NAME (STRING or COMPOUND_TEXT when the text converts,
 * UTF8_STRING otherwise). */
void rfx_set_title(rfx_display *display, const char *utf8_title);

/* The screen's resource database as xrdb loaded it (the RESOURCE_MANAGER property, where
 * Xft.dpi lives), or NULL when there is none; owned by Xlib, valid until rfx_close. */
const char *rfx_resource_manager(rfx_display *display);

/* The display's ICC profile by the X Color Management convention (ICC Profiles in X
 * Specification 0.4, section 5): the `_ICC_PROFILE` property (8-bit, any type) of the root window
 * of the window's screen, `_ICC_PROFILE_<n>` for screen n > 0. Returns its length and sets
 * *profile to a malloc'ed copy (release with free), or returns 0 with *profile NULL when there
 * is none. */
long rfx_icc_profile(rfx_display *display, unsigned char **profile);

/* The refresh rate, in Hz, of the monitor the window is on: the RandR 1.2 mode of the CRTC that
 * shows most of the window (dot clock / (htotal · vtotal), as xrandr computes it). 0 when the
 * server has no RandR 1.2, the window is on no CRTC, or the mode carries no timings (Xvfb's
 * own). A few round trips: ask now and then, not every frame. */
double rfx_refresh_rate(rfx_display *display);

/* Asks the window manager to add (`on` != 0) or remove _NET_WM_STATE_FULLSCREEN, and sets
 * _NET_WM_BYPASS_COMPOSITOR to 1 while on (deleted when off). */
void rfx_set_fullscreen(rfx_display *display, int on);

/* A pointer shape for `rfx_set_cursor`. */
typedef enum rfx_cursor {
    RFX_CURSOR_ARROW = 0,   /* the theme's "default" (else "left_ptr"; else the font's left_ptr) */
    RFX_CURSOR_OPEN_HAND,   /* the theme's "grab" (else "openhand", "hand1"; else the font's hand) */
    RFX_CURSOR_CLOSED_HAND, /* the theme's "grabbing" (else "closedhand", "fleur"; else the font's fleur) */
    RFX_CURSOR_HIDDEN,      /* an empty cursor */
    RFX_CURSOR_COUNT
} rfx_cursor;

/* Shows `shape` over the window, from the user's cursor theme through libXcursor (XCURSOR_THEME,
 * the Xcursor.theme resource, else the default theme). Each shape is loaded once and kept until
 * rfx_close. */
void rfx_set_cursor(rfx_display *display, rfx_cursor shape);

/* Asks for the window to be `width` x `height`; the ConfigureNotify that follows (from the
 * server, or the window manager's decision) arrives as an RFX_EVENT_CONFIGURE. */
void rfx_resize(rfx_display *display, int width, int height);

/* Moves the next event into `event` and returns 1, or returns 0 when none has arrived; never
 * blocks. Events with no app meaning (MIT-SHM completions, keymap changes, releases of wheel
 * buttons, XInput 2 emulated wheel presses) are consumed on the way. */
int rfx_next_event(rfx_display *display, rfx_event *event);

/* Blocks until an X event is available, `rfx_wake` is called, or `timeout_ms` passes (< 0: no
 * timeout). Returns at once if events are already queued. Flushes pending requests first. */
void rfx_wait(rfx_display *display, int timeout_ms);

/* Ends an `rfx_wait` early (or the next one, if none is in progress); safe from any thread. */
void rfx_wake(rfx_display *display);

/* From now on SIGINT, SIGTERM and SIGHUP no longer kill the process: each is recorded and wakes
 * `display`'s rfx_wait, so the app can close its window and exit on its own. Unblocks them in
 * the calling thread (and so in the threads it starts later), whatever mask it inherited. One
 * display at a time is woken (the last one given). */
void rfx_catch_quit_signals(rfx_display *display);

/* The signal that asked the process to quit since rfx_catch_quit_signals (the first one), or 0. */
int rfx_quit_signal(void);

/* Creates a `width` x `height` image (both >= 1): MIT-SHM if the connection is local and the
 * server attaches the segment (the segment is marked IPC_RMID at once, so it never outlives
 * the process), otherwise client memory, after one line on stderr saying why. Pixels start
 * black. Returns NULL with a reason in `error` only when memory runs out. */
rfx_image *rfx_image_create(rfx_display *display, int width, int height, char *error,
                            int error_len);

/* Detaches and frees the image. */
void rfx_image_destroy(rfx_display *display, rfx_image *image);

/* The image's first pixel: 32-bit 0x00RRGGBB words in host byte order. */
uint32_t *rfx_image_pixels(rfx_image *image);

/* Distance between the starts of two rows, in pixels. */
int rfx_image_row_pixels(rfx_image *image);

/* 1 if the server reads the image from shared memory, 0 if it travels in XPutImage requests. */
int rfx_image_is_shared(rfx_image *image);

/* Copies the image to the window's top-left corner and flushes. A shared image is read by
 * the server later: call `rfx_image_wait` before drawing into it again. */
void rfx_image_put(rfx_display *display, rfx_image *image);

/* Blocks until the server has finished reading every shared image put so far (its
 * ShmCompletion events); other events stay queued. Returns at once if none is in flight. */
void rfx_image_wait(rfx_display *display);

/* Reads the window's top-left `width` x `height` pixels back from the server (XGetImage,
 * ZPixmap: what xwd reads) into `pixels` as 0xFFRRGGBB, rows `row_pixels` apart. Returns 0, or
 * -1 with a reason in `error` (e.g. the window is unmapped or partly off the screen). */
int rfx_capture(rfx_display *display, uint32_t *pixels, int width, int height, int row_pixels,
                char *error, int error_len);

/* MARK: drag and drop (XDND version 5, target side) */

/* The XDND version the window advertises in its XdndAware property. */
enum { RFX_XDND_VERSION = 5 };

/* Answers an XdndPosition of `source`: XdndStatus accepting (XdndActionCopy, no rectangle: send
 * every position) or refusing the drop. */
void rfx_xdnd_send_status(rfx_display *display, unsigned long source, int accept);

/* Tells `source` the drop is over: XdndFinished, successful (XdndActionCopy) or not. */
void rfx_xdnd_send_finished(rfx_display *display, unsigned long source, int success);

/* Asks the drag source for the XdndSelection as text/uri-list at server time `time` (the
 * XdndDrop's); the answer arrives as an RFX_EVENT_DROP_DATA, once all of it has come when the
 * source sends it by INCR (ICCCM 2.7.2). */
void rfx_xdnd_request_uri_list(rfx_display *display, uint32_t time);

/* MARK: the clipboard (ICCCM selections) */

/* Makes the window the CLIPBOARD's owner, at the server time of the last key or button event
 * (ICCCM 2.1: never CurrentTime), written to `time`; returns 1 when the server agrees. */
int rfx_clipboard_claim(rfx_display *display, uint32_t *time);

/* The most bytes one ChangeProperty request can carry on this connection (the extended maximum
 * request size when the server has BIG-REQUESTS, less the request's 24-byte header and a big
 * request's 4-byte extended length). */
long rfx_max_property_bytes(rfx_display *display);

/* Answers `request` with `count` items of `format` bits (8: bytes; 32: `count` longs, as Xlib
 * takes them) of type `type_name`, then SelectionNotify. */
void rfx_selection_reply(rfx_display *display, const rfx_selection_request *request,
                         const char *type_name, int format, const void *data, long count);

/* Answers `request` with the atoms named `names` (type ATOM), then SelectionNotify. */
void rfx_selection_reply_atoms(rfx_display *display, const rfx_selection_request *request,
                               const char *const *names, int count);

/* Refuses `request`: SelectionNotify with property None (ICCCM 2.2). */
void rfx_selection_refuse(rfx_display *display, const rfx_selection_request *request);

/* Starts an INCR transfer (ICCCM 2.7.2) of `total_bytes` for `request`: watches the requestor's
 * properties, writes the INCR property and sends SelectionNotify. Each deletion of the property
 * arrives as an RFX_EVENT_PROPERTY_DELETED; answer it with `rfx_property_write`. */
void rfx_selection_begin_incremental(rfx_display *display, const rfx_selection_request *request,
                                     long total_bytes);

/* Writes one INCR chunk of `length` bytes (0: the end) of type `type_name` into `property` of
 * `window`; after the end the requestor's properties are no longer watched. */
void rfx_property_write(rfx_display *display, unsigned long window, unsigned long property,
                        const char *type_name, const void *bytes, long length);

/* MARK: Present */

/* Frames shown at vblanks through the Present extension, from MIT-SHM pixmaps (present.c). */
typedef struct rfx_presenter rfx_presenter;

/* When a presented frame reached the screen. */
typedef struct rfx_present_completion {
    uint32_t serial; /* rfx_presenter_present's return for that frame */
    uint64_t ust;    /* microseconds of CLOCK_MONOTONIC at the vblank that showed it */
    uint64_t msc;    /* that vblank's number */
    int skipped;     /* 1: a later frame took its vblank; it was never shown */
} rfx_present_completion;

/* Makes three `width` x `height` MIT-SHM pixmaps for `display`'s window and asks for Present's
 * notifies; NULL with the reason when the server has no Present extension or no shared
 * pixmaps (the caller then draws with XShmPutImage, or XPutImage). */
rfx_presenter *rfx_presenter_open(rfx_display *display, int width, int height, char *reason,
                                  int reason_len);
void rfx_presenter_close(rfx_presenter *presenter);

/* Remakes the pixmaps for a new window size (their contents are lost); 0 with the reason on
 * failure. */
int rfx_presenter_resize(rfx_presenter *presenter, int width, int height, char *reason,
                         int reason_len);

/* A pixmap's pixels to draw the next frame into (`row_pixels` per row), waiting until the server
 * has released one (IdleNotify); the same pixmap until it is presented. */
uint32_t *rfx_presenter_acquire(rfx_presenter *presenter, int *row_pixels);

/* Asks for the drawn pixmap to be shown at vblank `target_msc` (or the next one, if that has
 * passed), or with `at_once` copied as soon as the server takes it (PresentOptionAsync: for a
 * server with no scanout, where that cannot tear); returns the frame's serial. */
uint32_t rfx_presenter_present(rfx_presenter *presenter, uint64_t target_msc, int at_once);

/* Moves the oldest completion not yet taken into `completion` and returns 1, or returns 0. */
int rfx_presenter_take_completion(rfx_presenter *presenter, rfx_present_completion *completion);

#endif
