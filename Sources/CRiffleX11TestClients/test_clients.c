/* The test clients the end-to-end tests play against Riffle's window, each on its own connection
 * (CRiffleX11TestClients.h). The drag source sends its XDND messages through the window's own
 * ClientMessage sender, and waits on the shim's monotonic clock: one of each, in CRiffleX11's
 * internal header. */
#include "CRiffleX11TestClients.h"
#include "../CRiffleX11/internal.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Waits up to `remaining_ms` (at least 0) for `dpy`'s connection to have something to read. */
static void rfx_test_poll(Display *dpy, long remaining_ms) {
    struct pollfd fd = {.fd = ConnectionNumber(dpy), .events = POLLIN};
    poll(&fd, 1, remaining_ms < 0 ? 0 : (int)remaining_ms);
}

/* MARK: watching startup notification */

struct rfx_test_startup_watch {
    Display *dpy;
    Atom begin, more;
    char message[4096]; /* the message being assembled, 20 bytes a ClientMessage */
    size_t length;
};

int rfx_test_set_display_profile(const char *display_name, const unsigned char *profile, long length) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return 0;
    Atom atom = XInternAtom(dpy, "_ICC_PROFILE", False);
    XChangeProperty(dpy, DefaultRootWindow(dpy), atom, XA_CARDINAL, 8, PropModeReplace, profile, (int)length);
    XCloseDisplay(dpy);
    return 1;
}

rfx_test_startup_watch *rfx_test_startup_watch_open(const char *display_name) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return NULL;
    rfx_test_startup_watch *watch = calloc(1, sizeof *watch);
    if (!watch) {
        XCloseDisplay(dpy);
        return NULL;
    }
    watch->dpy = dpy;
    watch->begin = XInternAtom(dpy, "_NET_STARTUP_INFO_BEGIN", False);
    watch->more = XInternAtom(dpy, "_NET_STARTUP_INFO", False);
    /* The messages are sent to the root window with PropertyChangeMask. */
    XSelectInput(dpy, DefaultRootWindow(dpy), PropertyChangeMask);
    XSync(dpy, False);
    return watch;
}

int rfx_test_startup_watch_next(rfx_test_startup_watch *watch, char *message, int capacity,
                           int timeout_ms) {
    long deadline = rfx_monotonic_ms() + timeout_ms;
    for (;;) {
        while (XPending(watch->dpy)) {
            XEvent event;
            XNextEvent(watch->dpy, &event);
            if (event.type != ClientMessage || event.xclient.format != 8) continue;
            if (event.xclient.message_type == watch->begin) watch->length = 0;
            else if (event.xclient.message_type != watch->more) continue;
            for (int i = 0; i < 20; i++) {
                char byte = event.xclient.data.b[i];
                if (byte == 0) {
                    watch->message[watch->length] = 0;
                    snprintf(message, (size_t)capacity, "%s", watch->message);
                    watch->length = 0;
                    return 1;
                }
                if (watch->length + 1 < sizeof watch->message) watch->message[watch->length++] = byte;
            }
        }
        long remaining = deadline - rfx_monotonic_ms();
        if (remaining <= 0) return 0;
        rfx_test_poll(watch->dpy, remaining);
    }
}

void rfx_test_startup_watch_close(rfx_test_startup_watch *watch) {
    XCloseDisplay(watch->dpy);
    free(watch);
}

/* MARK: a drag source for the tests */

struct rfx_test_drag_source {
    Display *dpy;
    Window window;
    char *uri_list;
    Atom enter, position, status, leave, drop, finished, selection, action_copy, uri_list_type,
        text_plain, targets, incr;
    /* > 0: the list goes by INCR in chunks of this many bytes (rfx_test_drag_source_use_incr). */
    long chunk;
    /* The INCR transfer under way: the requestor's window and property, the bytes sent. */
    int sending;
    Window requestor;
    Atom property;
    long sent;
};

rfx_test_drag_source *rfx_test_drag_source_open(const char *display_name, const char *uri_list) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return NULL;
    rfx_test_drag_source *s = calloc(1, sizeof *s);
    if (!s) {
        XCloseDisplay(dpy);
        return NULL;
    }
    s->dpy = dpy;
    s->uri_list = strdup(uri_list);
    s->window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
    s->enter = XInternAtom(dpy, "XdndEnter", False);
    s->position = XInternAtom(dpy, "XdndPosition", False);
    s->status = XInternAtom(dpy, "XdndStatus", False);
    s->leave = XInternAtom(dpy, "XdndLeave", False);
    s->drop = XInternAtom(dpy, "XdndDrop", False);
    s->finished = XInternAtom(dpy, "XdndFinished", False);
    s->selection = XInternAtom(dpy, "XdndSelection", False);
    s->action_copy = XInternAtom(dpy, "XdndActionCopy", False);
    s->uri_list_type = XInternAtom(dpy, "text/uri-list", False);
    s->text_plain = XInternAtom(dpy, "text/plain", False);
    s->targets = XInternAtom(dpy, "TARGETS", False);
    s->incr = XInternAtom(dpy, "INCR", False);
    XSync(dpy, False);
    return s;
}

void rfx_test_drag_source_use_incr(rfx_test_drag_source *s, long chunk_bytes) { s->chunk = chunk_bytes; }

/* Answers a request for the list: in one property, or by INCR (ICCCM 2.7.2) when asked to, the
 * INCR property announcing its length and SelectionNotify sent at once; the requestor's deletion
 * of it asks for the first chunk (rfx_test_send_chunk). */
static void rfx_test_answer(rfx_test_drag_source *s, const XSelectionRequestEvent *asked) {
    XEvent reply;
    memset(&reply, 0, sizeof reply);
    reply.xselection.type = SelectionNotify;
    reply.xselection.requestor = asked->requestor;
    reply.xselection.selection = asked->selection;
    reply.xselection.target = asked->target;
    reply.xselection.time = asked->time;
    reply.xselection.property = None;
    if (asked->target == s->uri_list_type || asked->target == s->text_plain) {
        long length = (long)strlen(s->uri_list);
        if (s->chunk > 0) {
            XSelectInput(s->dpy, asked->requestor, PropertyChangeMask);
            XChangeProperty(s->dpy, asked->requestor, asked->property, s->incr, 32,
                            PropModeReplace, (const unsigned char *)&length, 1);
            s->sending = 1;
            s->requestor = asked->requestor;
            s->property = asked->property;
            s->sent = 0;
        } else {
            XChangeProperty(s->dpy, asked->requestor, asked->property, asked->target, 8,
                            PropModeReplace, (const unsigned char *)s->uri_list, (int)length);
        }
        reply.xselection.property = asked->property;
    }
    XSendEvent(s->dpy, asked->requestor, False, NoEventMask, &reply);
    XFlush(s->dpy);
}

/* The requestor deleted the INCR property or the last chunk: the next chunk, or the zero-length
 * end after the last. */
static void rfx_test_send_chunk(rfx_test_drag_source *s) {
    long length = (long)strlen(s->uri_list);
    long count = length - s->sent < s->chunk ? length - s->sent : s->chunk;
    XChangeProperty(s->dpy, s->requestor, s->property, s->uri_list_type, 8, PropModeReplace,
                    (const unsigned char *)s->uri_list + s->sent, (int)count);
    s->sent += count;
    if (count == 0) {
        s->sending = 0;
        XSelectInput(s->dpy, s->requestor, NoEventMask);
    }
    XFlush(s->dpy);
}

static void rfx_test_send(rfx_test_drag_source *s, Window target, Atom type, long l1, long l2,
                          long l3, long l4) {
    rfx_send_client_message(s->dpy, s->window, target, type, l1, l2, l3, l4);
}

/* Serves selection requests (and the INCR transfer they start) until a ClientMessage of `type`
 * arrives (returns its l[1]) or `timeout_ms` passes (returns -1). */
static long rfx_test_await(rfx_test_drag_source *s, Atom type, int timeout_ms) {
    long deadline = rfx_monotonic_ms() + timeout_ms;
    for (;;) {
        while (XPending(s->dpy)) {
            XEvent event;
            XNextEvent(s->dpy, &event);
            if (event.type == ClientMessage && event.xclient.message_type == type)
                return event.xclient.data.l[1];
            if (event.type == SelectionRequest) rfx_test_answer(s, &event.xselectionrequest);
            if (event.type == PropertyNotify && s->sending && event.xproperty.window == s->requestor &&
                event.xproperty.atom == s->property && event.xproperty.state == PropertyDelete)
                rfx_test_send_chunk(s);
        }
        long remaining = deadline - rfx_monotonic_ms();
        if (remaining <= 0) return -1;
        rfx_test_poll(s->dpy, remaining);
    }
}

int rfx_test_drag_source_hover(rfx_test_drag_source *s, unsigned long target, int x, int y,
                               int timeout_ms) {
    XSetSelectionOwner(s->dpy, s->selection, s->window, CurrentTime);
    rfx_test_send(s, (Window)target, s->enter, (long)RFX_XDND_VERSION << 24,
                  (long)s->uri_list_type, (long)s->text_plain, None);
    rfx_test_send(s, (Window)target, s->position, 0, ((long)x << 16) | (y & 0xffff), CurrentTime,
                  (long)s->action_copy);
    long status = rfx_test_await(s, s->status, timeout_ms);
    return status < 0 ? -1 : (int)(status & 1);
}

void rfx_test_drag_source_leave(rfx_test_drag_source *s, unsigned long target) {
    rfx_test_send(s, (Window)target, s->leave, 0, 0, 0, 0);
}

int rfx_test_drag_source_drop(rfx_test_drag_source *s, unsigned long target, int timeout_ms) {
    rfx_test_send(s, (Window)target, s->drop, 0, CurrentTime, 0, 0);
    long finished = rfx_test_await(s, s->finished, timeout_ms);
    return finished < 0 ? -1 : (int)(finished & 1);
}

void rfx_test_drag_source_close(rfx_test_drag_source *s) {
    XDestroyWindow(s->dpy, s->window);
    XCloseDisplay(s->dpy);
    free(s->uri_list);
    free(s);
}

/* MARK: reading the pointer's cursor back */

int rfx_test_cursor_read(const char *display_name, rfx_test_cursor *cursor) {
    memset(cursor, 0, sizeof *cursor);
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return 0;
    int event_base, error_base;
    XFixesCursorImage *image = XFixesQueryExtension(dpy, &event_base, &error_base)
                                   ? XFixesGetCursorImage(dpy)
                                   : NULL;
    if (image) {
        cursor->width = image->width;
        cursor->height = image->height;
        snprintf(cursor->name, sizeof cursor->name, "%s", image->name ? image->name : "");
        /* FNV-1a over the ARGB words (Xlib hands them as longs, one pixel each). */
        uint64_t hash = 1469598103934665603ULL;
        for (long i = 0; i < (long)image->width * image->height; i++) {
            uint32_t pixel = (uint32_t)image->pixels[i];
            if (pixel >> 24) cursor->visible_pixels++;
            for (int b = 0; b < 4; b++) {
                hash ^= (pixel >> (8 * b)) & 0xff;
                hash *= 1099511628211ULL;
            }
        }
        cursor->hash = hash;
        XFree(image);
    }
    XCloseDisplay(dpy);
    return cursor->width > 0;
}

/* MARK: a clipboard requestor */

struct rfx_test_requestor {
    Display *dpy;
    Window window;
    Atom clipboard, property, incr;
    int state; /* 0 asked, 1 receiving INCR chunks, 2 complete, 3 refused */
    unsigned char *bytes;
    long length;
};

rfx_test_requestor *rfx_test_requestor_open(const char *display_name) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return NULL;
    rfx_test_requestor *r = calloc(1, sizeof *r);
    if (!r) {
        XCloseDisplay(dpy);
        return NULL;
    }
    r->dpy = dpy;
    r->window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
    XSelectInput(dpy, r->window, PropertyChangeMask);
    r->clipboard = XInternAtom(dpy, "CLIPBOARD", False);
    r->property = XInternAtom(dpy, "RIFFLE_TEST_PASTE", False);
    r->incr = XInternAtom(dpy, "INCR", False);
    XSync(dpy, False);
    return r;
}

void rfx_test_requestor_ask(rfx_test_requestor *r, const char *target) {
    free(r->bytes);
    r->bytes = NULL;
    r->length = 0;
    r->state = 0;
    XConvertSelection(r->dpy, r->clipboard, XInternAtom(r->dpy, target, False), r->property,
                      r->window, CurrentTime);
    XSync(r->dpy, False);
}

/* Reads and deletes the property (the deletion asks an INCR owner for the next chunk), appending
 * its bytes; returns how many it held. */
static long rfx_test_take_property(rfx_test_requestor *r, Atom *type) {
    int format;
    unsigned long count = 0, after;
    unsigned char *value = NULL;
    *type = None;
    if (XGetWindowProperty(r->dpy, r->window, r->property, 0, 0x7fffffff / 4, True,
                           AnyPropertyType, type, &format, &count, &after, &value) != Success)
        return 0;
    long bytes = *type == r->incr ? 0 : (long)count * (format == 32 ? (long)sizeof(long) : format / 8);
    if (bytes > 0) {
        unsigned char *grown = realloc(r->bytes, (size_t)(r->length + bytes));
        if (grown) {
            memcpy(grown + r->length, value, (size_t)bytes);
            r->bytes = grown;
            r->length += bytes;
        }
    }
    if (value) XFree(value);
    return bytes;
}

int rfx_test_requestor_poll(rfx_test_requestor *r, int timeout_ms) {
    long deadline = rfx_monotonic_ms() + timeout_ms;
    for (;;) {
        while (r->state < 2 && XPending(r->dpy)) {
            XEvent event;
            XNextEvent(r->dpy, &event);
            Atom type;
            if (event.type == SelectionNotify && r->state == 0) {
                if (event.xselection.property == None) {
                    r->state = 3;
                } else {
                    rfx_test_take_property(r, &type);
                    r->state = type == r->incr ? 1 : 2;
                }
            } else if (event.type == PropertyNotify && r->state == 1 &&
                       event.xproperty.atom == r->property &&
                       event.xproperty.state == PropertyNewValue) {
                if (rfx_test_take_property(r, &type) == 0) r->state = 2;
            }
        }
        if (r->state >= 2) return r->state == 2 ? 2 : -1;
        long remaining = deadline - rfx_monotonic_ms();
        if (remaining <= 0) return r->state;
        rfx_test_poll(r->dpy, remaining);
    }
}

const unsigned char *rfx_test_requestor_bytes(rfx_test_requestor *r, long *length) {
    *length = r->length;
    return r->bytes;
}

void rfx_test_requestor_close(rfx_test_requestor *r) {
    XDestroyWindow(r->dpy, r->window);
    XCloseDisplay(r->dpy);
    free(r->bytes);
    free(r);
}
