/* The refresh rate of the monitor a window is on, from RandR 1.2's CRTCs and modes. */
#include "internal.h"

#include <X11/extensions/Xrandr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A mode's refresh rate, as xrandr(1) computes it: dot clock / (htotal · vtotal), halved for
 * a double-scanned mode and doubled for an interlaced one (fields, not frames); 0 when the mode
 * carries no timings (Xvfb's own mode, a virtual output). */
static double rfx_mode_rate(const XRRModeInfo *mode) {
    if (mode->hTotal == 0 || mode->vTotal == 0 || mode->dotClock == 0) return 0;
    double rate = (double)mode->dotClock / ((double)mode->hTotal * (double)mode->vTotal);
    if (mode->modeFlags & RR_DoubleScan) rate /= 2;
    if (mode->modeFlags & RR_Interlace) rate *= 2;
    return rate;
}

/* How many pixels of the rectangle (x, y, w, h) lie in the CRTC's. */
static long long rfx_overlap(int x, int y, int w, int h, const XRRCrtcInfo *crtc) {
    long long left = x > crtc->x ? x : crtc->x, top = y > crtc->y ? y : crtc->y;
    long long right = (long long)x + w, bottom = (long long)y + h;
    long long crtc_right = (long long)crtc->x + crtc->width, crtc_bottom = (long long)crtc->y + crtc->height;
    if (crtc_right < right) right = crtc_right;
    if (crtc_bottom < bottom) bottom = crtc_bottom;
    return right > left && bottom > top ? (right - left) * (bottom - top) : 0;
}

double rfx_refresh_rate(rfx_display *display) {
    Display *dpy = rfx_display_xlib(display);
    Window window = rfx_display_window(display);
    int event_base, error_base, major = 0, minor = 0;
    if (!XRRQueryExtension(dpy, &event_base, &error_base) || !XRRQueryVersion(dpy, &major, &minor) ||
        major < 1 || (major == 1 && minor < 2))
        return 0;
    XWindowAttributes attributes;
    Window child;
    int x = 0, y = 0;
    if (!XGetWindowAttributes(dpy, window, &attributes) ||
        !XTranslateCoordinates(dpy, window, attributes.root, 0, 0, &x, &y, &child))
        return 0;
    XRRScreenResources *resources = XRRGetScreenResourcesCurrent(dpy, attributes.root);
    if (resources == NULL) return 0;
    double rate = 0;
    long long best = 0;
    for (int i = 0; i < resources->ncrtc; i++) {
        XRRCrtcInfo *crtc = XRRGetCrtcInfo(dpy, resources, resources->crtcs[i]);
        if (crtc == NULL) continue;
        long long overlap = crtc->mode == None ? 0 : rfx_overlap(x, y, attributes.width, attributes.height, crtc);
        if (overlap > best) {
            for (int m = 0; m < resources->nmode; m++) {
                if (resources->modes[m].id != crtc->mode) continue;
                best = overlap;
                rate = rfx_mode_rate(&resources->modes[m]);
            }
        }
        XRRFreeCrtcInfo(crtc);
    }
    XRRFreeScreenResources(resources);
    return rate;
}
