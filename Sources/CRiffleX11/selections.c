/* Selections: the XDND messages a drop target sends, and the clipboard's replies. */
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
