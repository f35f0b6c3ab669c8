/* CRiffleX11TestClients: other X clients that the end-to-end tests and the benchmarks play
 * against Riffle's window, each on a connection of its own: a launcher watching startup
 * notification, a colour manager setting the display's profile, a monitor of a chosen refresh
 * rate, a file manager's drag source, a program pasting from the clipboard, a reader of the
 * pointer's cursor and of the screen. Nothing the product ships links this target. Every symbol
 * carries the prefix rfx_test_. */
#ifndef RIFFLE_X11_TEST_CLIENTS_H
#define RIFFLE_X11_TEST_CLIENTS_H

#include <stdint.h>

/* A second X connection that listens, as a launcher does, to the startup-notification messages
 * broadcast on the root window of the display `display_name` (NULL: $DISPLAY); the tests watch
 * the app end its launch with it. NULL when the display cannot be opened. */
typedef struct rfx_test_startup_watch rfx_test_startup_watch;
rfx_test_startup_watch *rfx_test_startup_watch_open(const char *display_name);

/* Waits up to `timeout_ms` for the next complete message ("remove: ID=..."), copies it
 * NUL-terminated (cut to `capacity`) into `message` and returns 1; returns 0 on timeout. */
int rfx_test_startup_watch_next(rfx_test_startup_watch *watch, char *message, int capacity, int timeout_ms);

/* Closes the watching connection. */
void rfx_test_startup_watch_close(rfx_test_startup_watch *watch);

/* Sets the root window's `_ICC_PROFILE` on the display `display_name` (NULL: $DISPLAY) to
 * `length` bytes of `profile` (type CARDINAL, format 8), as a colour manager (colord, xiccd)
 * does for the monitor; the property outlives this short connection. 0 when the display cannot
 * be opened. */
int rfx_test_set_display_profile(const char *display_name, const unsigned char *profile, long length);

/* A connection that holds a mode of `hz` (no blanking, the dot clock setting the rate) on the
 * first CRTC and output of the display `display_name` (NULL: $DISPLAY), as a monitor of that
 * rate would: the server drops a client's modes when it disconnects, so the mode lasts until
 * rfx_test_refresh_override_close. NULL when RandR cannot set it. */
typedef struct rfx_test_refresh_override rfx_test_refresh_override;
rfx_test_refresh_override *rfx_test_set_refresh_rate(const char *display_name, double hz);
void rfx_test_refresh_override_close(rfx_test_refresh_override *override);

/* MARK: reading a screen back (benchmarks) */

/* A second client on `display_name` reading the middle quarter of its screen back
 * (screen_watch.c); NULL when the display cannot be opened. */
typedef struct rfx_test_screen_watch rfx_test_screen_watch;
rfx_test_screen_watch *rfx_test_screen_watch_open(const char *display_name);
/* As rfx_test_screen_watch_open, reading the whole screen when `whole_screen` (a grid's first
 * screen of thumbnails), else its middle quarter. */
rfx_test_screen_watch *rfx_test_screen_watch_open_area(const char *display_name, int whole_screen);

/* Reads the middle of the screen now: a hash of its pixels in `hash` (equal hashes: the same
 * picture) and whether every pixel is black in `blank`; returns 0 when the server refuses. */
int rfx_test_screen_watch_read(rfx_test_screen_watch *watch, uint64_t *hash, int *blank);
/* 1 when every pixel of the last read was one colour (black, or a flat placeholder). */
int rfx_test_screen_watch_is_flat(const rfx_test_screen_watch *watch);
/* 1 when a key was pressed on the server since the last call, on any keyboard and whatever
 * window has the focus (XInput 2 raw events: what another client's XTest key reaches the server
 * as); 0 otherwise, or without XInput 2. */
int rfx_test_screen_watch_key_pressed(rfx_test_screen_watch *watch);
void rfx_test_screen_watch_close(rfx_test_screen_watch *watch);

/* An XDND drag source (its own connection and window) offering `uri_list` as text/uri-list and
 * text/plain, as a file manager does. NULL when the display cannot be opened. */
typedef struct rfx_test_drag_source rfx_test_drag_source;
rfx_test_drag_source *rfx_test_drag_source_open(const char *display_name, const char *uri_list);

/* Drags over `target` at root position (x, y): XdndEnter (version 5) then XdndPosition; waits
 * up to `timeout_ms` for the XdndStatus. Returns 1 accepted, 0 refused, -1 no answer. */
int rfx_test_drag_source_hover(rfx_test_drag_source *source, unsigned long target, int x, int y,
                               int timeout_ms);

/* Leaves `target` (XdndLeave). */
void rfx_test_drag_source_leave(rfx_test_drag_source *source, unsigned long target);

/* Drops on `target` (XdndDrop), serves the selection requests that follow and waits up to
 * `timeout_ms` for XdndFinished. Returns 1 finished with success, 0 finished without, -1 none. */
int rfx_test_drag_source_drop(rfx_test_drag_source *source, unsigned long target, int timeout_ms);

/* From now on the source answers a request for its list by INCR (ICCCM 2.7.2) in chunks of
 * `chunk_bytes` (> 0), as a source does when the list is larger than one request. */
void rfx_test_drag_source_use_incr(rfx_test_drag_source *source, long chunk_bytes);

/* Closes the source's connection. */
void rfx_test_drag_source_close(rfx_test_drag_source *source);

/* The pointer's cursor as the server shows it now (XFixesGetCursorImage): the cursor under the
 * pointer, whichever window defined it. */
typedef struct rfx_test_cursor {
    char name[64];      /* XFixes' name of it: a theme cursor's name (libXcursor sets it), else "" */
    int width, height;
    int visible_pixels; /* pixels whose alpha is not 0; 0: the cursor shows nothing */
    uint64_t hash;      /* of its ARGB pixels: equal hashes, the same picture */
} rfx_test_cursor;

/* Reads the cursor shown on the display `display_name` (NULL: $DISPLAY) into `cursor` on a
 * connection of its own; 0 when the display cannot be opened or has no XFixes. */
int rfx_test_cursor_read(const char *display_name, rfx_test_cursor *cursor);

/* A client that pastes from the CLIPBOARD, as another program does, without waiting for the
 * answer: it asks, then polls, and receives an INCR answer chunk by chunk (ICCCM 2.7.2). NULL
 * when the display cannot be opened. */
typedef struct rfx_test_requestor rfx_test_requestor;
rfx_test_requestor *rfx_test_requestor_open(const char *display_name);

/* Asks the CLIPBOARD's owner for `target` (XConvertSelection, then XSync: the owner's
 * SelectionRequest is queued when this returns); forgets the previous answer. */
void rfx_test_requestor_ask(rfx_test_requestor *requestor, const char *target);

/* Takes in what has come, waiting up to `timeout_ms` (0: not at all) for the answer to end:
 * 2 all of it has come, 1 it has begun (SelectionNotify came, INCR chunks are under way),
 * 0 no answer yet, -1 refused. */
int rfx_test_requestor_poll(rfx_test_requestor *requestor, int timeout_ms);

/* The answer's bytes so far (`length` of them), owned by the requestor. */
const unsigned char *rfx_test_requestor_bytes(rfx_test_requestor *requestor, long *length);

/* Closes the requestor's connection. */
void rfx_test_requestor_close(rfx_test_requestor *requestor);

#endif
