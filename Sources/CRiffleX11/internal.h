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

#endif
