/* Images: the frame buffer as an MIT-SHM segment (or a plain XImage), put on the window, and the
 * window read back. */
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

struct rfx_image {
    XImage *image;
    XShmSegmentInfo shm;
    int shared;
};

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
        snprintf(reason, reason_len, "XShmAttach: %s", rfx_trap_message());
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
                   code ? rfx_trap_message() : "no image");
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
