/* Events: the server's input translated into rfx_events (core, XInput 2, XDND), and the waits of
 * the loop. */
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
        unsigned code = event->xkey.keycode & 0xFF;
        unsigned char bit = (unsigned char)(1u << (code & 7));
        /* Down already: the key is held and this is its auto-repeat. Without detectable
         * auto-repeat the release before it came at this very server time. */
        int repeat = (d->keys_down[code >> 3] & bit) != 0 ||
                     (d->last_release_keycode == code && d->last_release_time == event->xkey.time);
        d->keys_down[code >> 3] |= bit;
        /* XLookupString applies Shift and the keyboard group: Shift+= gives "plus". */
        KeySym keysym = NoSymbol;
        char text[32];
        XLookupString(&event->xkey, text, sizeof text, &keysym, NULL);
        const char *name = keysym == NoSymbol ? NULL : XKeysymToString(keysym);
        if (!name) return;
        rfx_event *key = rfx_push(d, RFX_EVENT_KEY, event->xkey.time);
        snprintf(key->keysym_name, sizeof key->keysym_name, "%s", name);
        key->modifiers = rfx_modifiers(event->xkey.state);
        key->key_repeat = repeat;
        return;
    }
    case KeyRelease: {
        unsigned code = event->xkey.keycode & 0xFF;
        d->keys_down[code >> 3] &= (unsigned char)~(1u << (code & 7));
        d->last_release_keycode = code;
        d->last_release_time = event->xkey.time;
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
        /* Keys released elsewhere send this window no release: none is down any more. */
        memset(d->keys_down, 0, sizeof d->keys_down);
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
