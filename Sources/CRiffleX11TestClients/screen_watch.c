/* A second client that reads a screen back, for the benchmarks: it tells when what the screen
 * shows changes (a hash of its pixels) and whether it is still blank, the way a person sees a
 * program start. It reads the middle of the root window, half its width and height, where a
 * photo at fit lies, through MIT-SHM (XShmGetImage) where it can, else XGetImage: a quarter of the
 * screen keeps the watcher (and the server serving it) from taking the CPU from what it watches. */
#include "CRiffleX11TestClients.h"
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XShm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

struct rfx_test_screen_watch {
    Display *dpy;
    Window root;
    int x, y, width, height;
    XImage *image; /* the shared image, when MIT-SHM works */
    XShmSegmentInfo shm;
    int xi_opcode; /* XInput's major opcode, 0 without XInput 2 */
    int flat;      /* the last read's pixels were all one colour */
};

rfx_test_screen_watch *rfx_test_screen_watch_open(const char *display_name) {
    return rfx_test_screen_watch_open_area(display_name, 0);
}

rfx_test_screen_watch *rfx_test_screen_watch_open_area(const char *display_name, int whole_screen) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return NULL;
    rfx_test_screen_watch *watch = calloc(1, sizeof *watch);
    if (!watch) {
        XCloseDisplay(dpy);
        return NULL;
    }
    int screen = DefaultScreen(dpy);
    watch->dpy = dpy;
    watch->root = RootWindow(dpy, screen);
    watch->width = DisplayWidth(dpy, screen) / (whole_screen ? 1 : 2);
    watch->height = DisplayHeight(dpy, screen) / (whole_screen ? 1 : 2);
    watch->x = whole_screen ? 0 : watch->width / 2;
    watch->y = whole_screen ? 0 : watch->height / 2;
    /* Raw key presses from every keyboard, whichever window has the focus (XInput 2). */
    int event_base, error_base, major = 2, minor = 0;
    if (XQueryExtension(dpy, "XInputExtension", &watch->xi_opcode, &event_base, &error_base) &&
        XIQueryVersion(dpy, &major, &minor) == Success) {
        unsigned char bits[XIMaskLen(XI_RawKeyPress)] = {0};
        XISetMask(bits, XI_RawKeyPress);
        XIEventMask mask = {XIAllMasterDevices, (int)sizeof bits, bits};
        XISelectEvents(dpy, watch->root, &mask, 1);
    } else {
        watch->xi_opcode = 0;
    }
    if (XShmQueryExtension(dpy)) {
        XImage *image = XShmCreateImage(dpy, DefaultVisual(dpy, screen), (unsigned)DefaultDepth(dpy, screen),
                                        ZPixmap, NULL, &watch->shm, (unsigned)watch->width,
                                        (unsigned)watch->height);
        if (image) {
            watch->shm.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * (size_t)image->height,
                                      IPC_CREAT | 0600);
            watch->shm.shmaddr = watch->shm.shmid >= 0 ? shmat(watch->shm.shmid, NULL, 0) : (char *)-1;
            if (watch->shm.shmaddr != (char *)-1) {
                image->data = watch->shm.shmaddr;
                watch->shm.readOnly = False;
                XShmAttach(dpy, &watch->shm);
                XSync(dpy, False);
                shmctl(watch->shm.shmid, IPC_RMID, NULL);
                watch->image = image;
            } else {
                if (watch->shm.shmid >= 0) shmctl(watch->shm.shmid, IPC_RMID, NULL);
                XDestroyImage(image);
            }
        }
    }
    return watch;
}

int rfx_test_screen_watch_read(rfx_test_screen_watch *watch, uint64_t *hash, int *blank) {
    XImage *image = watch->image;
    XImage *fetched = NULL;
    if (image) {
        if (!XShmGetImage(watch->dpy, watch->root, image, watch->x, watch->y, AllPlanes)) return 0;
    } else {
        fetched = XGetImage(watch->dpy, watch->root, watch->x, watch->y, (unsigned)watch->width, (unsigned)watch->height,
                            AllPlanes, ZPixmap);
        if (!fetched) return 0;
        image = fetched;
    }
    /* FNV-1a over the pixels' colour bits, 64-bit words at a time. */
    uint64_t h = 1469598103934665603ull;
    int any = 0, mixed = 0;
    const uint32_t first = *(const uint32_t *)(const void *)image->data & 0x00FFFFFFu;
    for (int y = 0; y < image->height; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(image->data + (size_t)y * (size_t)image->bytes_per_line);
        for (int x = 0; x < image->width; x++) {
            uint32_t p = row[x] & 0x00FFFFFFu;
            any |= p != 0;
            mixed |= p != first;
            h = (h ^ p) * 1099511628211ull;
        }
    }
    watch->flat = !mixed;
    if (fetched) XDestroyImage(fetched);
    *hash = h;
    *blank = !any;
    return 1;
}

int rfx_test_screen_watch_is_flat(const rfx_test_screen_watch *watch) { return watch->flat; }

int rfx_test_screen_watch_key_pressed(rfx_test_screen_watch *watch) {
    int pressed = 0;
    while (XPending(watch->dpy)) {
        XEvent event;
        XNextEvent(watch->dpy, &event);
        if (event.xcookie.type == GenericEvent && watch->xi_opcode != 0 &&
            event.xcookie.extension == watch->xi_opcode && event.xcookie.evtype == XI_RawKeyPress)
            pressed = 1;
    }
    return pressed;
}

void rfx_test_screen_watch_close(rfx_test_screen_watch *watch) {
    if (watch->image) {
        XShmDetach(watch->dpy, &watch->shm);
        shmdt(watch->shm.shmaddr);
        watch->image->data = NULL;
        XDestroyImage(watch->image);
    }
    XCloseDisplay(watch->dpy);
    free(watch);
}
