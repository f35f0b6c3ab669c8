/* Frames shown through the Present extension: the app draws into one of a few MIT-SHM pixmaps
 * and asks the server to show it at a vblank (PresentPixmap), so no frame is ever shown half
 * drawn. The server says when each frame reached the screen (CompleteNotify: its UST, in
 * microseconds of CLOCK_MONOTONIC, and its MSC, the count of vblanks) and when a pixmap is free
 * to draw into again (IdleNotify). */
#include "internal.h"
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xpresent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

enum {
    /* Three pixmaps: one on screen, one queued for the next vblank, one being drawn. */
    RFX_PRESENT_BUFFERS = 3,
    RFX_PRESENT_COMPLETIONS = 64,
    /* A pixmap the server has not released after this long is taken back (a server that never
     * sends IdleNotify must not hang the app). */
    RFX_PRESENT_IDLE_TIMEOUT_MS = 250
};

typedef struct rfx_present_buffer {
    Pixmap pixmap;
    XShmSegmentInfo shm;
    int busy;        /* presented, and not yet released by an IdleNotify */
    uint32_t serial; /* of its latest presentation */
} rfx_present_buffer;

struct rfx_presenter {
    rfx_display *display;
    Display *dpy;
    Window window;
    int opcode;
    XID event_id;
    int width, height, depth;
    rfx_present_buffer buffers[RFX_PRESENT_BUFFERS];
    int acquired; /* the buffer handed out for drawing, or -1 */
    uint32_t next_serial;
    rfx_present_completion completions[RFX_PRESENT_COMPLETIONS];
    int completion_count;
};

static int rfx_presenter_on_event(void *context, XGenericEventCookie *cookie) {
    rfx_presenter *p = context;
    if (cookie->extension != p->opcode) return 0;
    if (cookie->evtype == PresentCompleteNotify) {
        const XPresentCompleteNotifyEvent *event = cookie->data;
        if (event->kind != PresentCompleteKindPixmap) return 1;
        if (p->completion_count == RFX_PRESENT_COMPLETIONS) {
            /* Nobody took them: the oldest go. */
            memmove(&p->completions[0], &p->completions[1],
                    (RFX_PRESENT_COMPLETIONS - 1) * sizeof p->completions[0]);
            p->completion_count--;
        }
        p->completions[p->completion_count++] = (rfx_present_completion){
            .serial = event->serial_number,
            .ust = event->ust,
            .msc = event->msc,
            .skipped = event->mode == PresentCompleteModeSkip,
        };
    } else if (cookie->evtype == PresentIdleNotify) {
        const XPresentIdleNotifyEvent *event = cookie->data;
        for (int i = 0; i < RFX_PRESENT_BUFFERS; i++) {
            if (p->buffers[i].pixmap == event->pixmap && p->buffers[i].serial == event->serial_number)
                p->buffers[i].busy = 0;
        }
    }
    return 1;
}

static void rfx_presenter_free_buffers(rfx_presenter *p) {
    for (int i = 0; i < RFX_PRESENT_BUFFERS; i++) {
        rfx_present_buffer *b = &p->buffers[i];
        if (b->pixmap) XFreePixmap(p->dpy, b->pixmap);
        if (b->shm.shmaddr && b->shm.shmaddr != (char *)-1) {
            XShmDetach(p->dpy, &b->shm);
            shmdt(b->shm.shmaddr);
        }
        memset(b, 0, sizeof *b);
    }
    XSync(p->dpy, False);
    p->acquired = -1;
}

/* Makes the pixmaps for a width x height window; 0 with the reason on failure. */
static int rfx_presenter_make_buffers(rfx_presenter *p, int width, int height, char *reason,
                                      int reason_len) {
    size_t bytes = (size_t)width * 4 * (size_t)height;
    for (int i = 0; i < RFX_PRESENT_BUFFERS; i++) {
        rfx_present_buffer *b = &p->buffers[i];
        b->shm.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
        if (b->shm.shmid < 0) {
            snprintf(reason, (size_t)reason_len, "shmget: %s", strerror(errno));
            rfx_presenter_free_buffers(p);
            return 0;
        }
        b->shm.shmaddr = shmat(b->shm.shmid, NULL, 0);
        b->shm.readOnly = False;
        if (b->shm.shmaddr == (char *)-1) {
            snprintf(reason, (size_t)reason_len, "shmat: %s", strerror(errno));
            shmctl(b->shm.shmid, IPC_RMID, NULL);
            rfx_presenter_free_buffers(p);
            return 0;
        }
        /* A new segment is zero-filled (shmget(2)): black, and no page touched until drawn. */
        XShmAttach(p->dpy, &b->shm);
        b->pixmap = XShmCreatePixmap(p->dpy, p->window, b->shm.shmaddr, &b->shm, (unsigned)width,
                                     (unsigned)height, (unsigned)p->depth);
    }
    XSync(p->dpy, False);
    /* Attached (or failed to): the segments now live as long as the attachments do. */
    for (int i = 0; i < RFX_PRESENT_BUFFERS; i++) shmctl(p->buffers[i].shm.shmid, IPC_RMID, NULL);
    p->width = width;
    p->height = height;
    return 1;
}

rfx_presenter *rfx_presenter_open(rfx_display *display, int width, int height, char *reason,
                                  int reason_len) {
    Display *dpy = rfx_display_xlib(display);
    int opcode, event_base, error_base, major = 1, minor = 0, shm_major, shm_minor;
    Bool shared_pixmaps = False;
    if (!XPresentQueryExtension(dpy, &opcode, &event_base, &error_base) ||
        !XPresentQueryVersion(dpy, &major, &minor)) {
        snprintf(reason, (size_t)reason_len, "the server has no Present extension");
        return NULL;
    }
    if (!rfx_display_shares_memory(display) ||
        !XShmQueryVersion(dpy, &shm_major, &shm_minor, &shared_pixmaps) || !shared_pixmaps ||
        XShmPixmapFormat(dpy) != ZPixmap) {
        snprintf(reason, (size_t)reason_len, "the server shares no MIT-SHM pixmaps");
        return NULL;
    }
    int depth = rfx_display_depth(display);
    if (depth != 24 && depth != 32) {
        snprintf(reason, (size_t)reason_len, "the window's depth is %d, not 24 or 32", depth);
        return NULL;
    }
    rfx_presenter *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(reason, (size_t)reason_len, "out of memory");
        return NULL;
    }
    p->display = display;
    p->dpy = dpy;
    p->window = rfx_display_window(display);
    p->opcode = opcode;
    p->depth = depth;
    p->acquired = -1;
    p->next_serial = 1;
    if (!rfx_presenter_make_buffers(p, width, height, reason, reason_len)) {
        free(p);
        return NULL;
    }
    p->event_id = XPresentSelectInput(dpy, p->window, PresentCompleteNotifyMask | PresentIdleNotifyMask);
    rfx_display_set_generic_handler(display, rfx_presenter_on_event, p);
    return p;
}

void rfx_presenter_close(rfx_presenter *p) {
    rfx_display_set_generic_handler(p->display, NULL, NULL);
    XPresentSelectInput(p->dpy, p->window, 0);
    rfx_presenter_free_buffers(p);
    free(p);
}

int rfx_presenter_resize(rfx_presenter *p, int width, int height, char *reason, int reason_len) {
    if (width == p->width && height == p->height) return 1;
    rfx_presenter_free_buffers(p);
    return rfx_presenter_make_buffers(p, width, height, reason, reason_len);
}

static Bool rfx_is_present_event(Display *dpy, XEvent *event, XPointer presenter) {
    (void)dpy;
    return event->type == GenericEvent &&
           event->xcookie.extension == ((rfx_presenter *)(void *)presenter)->opcode;
}

/* Handles the Present events already received, leaving every other event queued. */
static void rfx_presenter_take_events(rfx_presenter *p) {
    XEvent event;
    while (XCheckIfEvent(p->dpy, &event, rfx_is_present_event, (XPointer)p)) {
        if (XGetEventData(p->dpy, &event.xcookie)) {
            rfx_presenter_on_event(p, &event.xcookie);
            XFreeEventData(p->dpy, &event.xcookie);
        }
    }
}

uint32_t *rfx_presenter_acquire(rfx_presenter *p, int *row_pixels) {
    *row_pixels = p->width;
    if (p->acquired >= 0) return (uint32_t *)(void *)p->buffers[p->acquired].shm.shmaddr;
    int waited = 0;
    for (;;) {
        rfx_presenter_take_events(p);
        for (int i = 0; i < RFX_PRESENT_BUFFERS; i++) {
            if (!p->buffers[i].busy) {
                p->acquired = i;
                return (uint32_t *)(void *)p->buffers[i].shm.shmaddr;
            }
        }
        if (waited >= RFX_PRESENT_IDLE_TIMEOUT_MS) {
            /* Take back the one presented longest ago. */
            int oldest = 0;
            for (int i = 1; i < RFX_PRESENT_BUFFERS; i++) {
                if (p->buffers[i].serial < p->buffers[oldest].serial) oldest = i;
            }
            p->buffers[oldest].busy = 0;
            continue;
        }
        XFlush(p->dpy);
        struct pollfd fd = {.fd = ConnectionNumber(p->dpy), .events = POLLIN};
        poll(&fd, 1, 5);
        waited += 5;
        /* Reads what arrived into Xlib's queue without taking any event out of it. */
        XEventsQueued(p->dpy, QueuedAfterReading);
    }
}

uint32_t rfx_presenter_present(rfx_presenter *p, uint64_t target_msc, int at_once) {
    if (p->acquired < 0) {
        int row_pixels;
        rfx_presenter_acquire(p, &row_pixels);
    }
    rfx_present_buffer *b = &p->buffers[p->acquired];
    p->acquired = -1;
    b->serial = p->next_serial++;
    b->busy = 1;
    XPresentPixmap(p->dpy, p->window, b->pixmap, b->serial, None, None, 0, 0, None, None, None,
                   at_once ? PresentOptionAsync : PresentOptionNone, target_msc, 0, 0, NULL, 0);
    XFlush(p->dpy);
    return b->serial;
}

int rfx_presenter_take_completion(rfx_presenter *p, rfx_present_completion *out) {
    rfx_presenter_take_events(p);
    if (p->completion_count == 0) return 0;
    *out = p->completions[0];
    p->completion_count--;
    memmove(&p->completions[0], &p->completions[1], (size_t)p->completion_count * sizeof p->completions[0]);
    return 1;
}
