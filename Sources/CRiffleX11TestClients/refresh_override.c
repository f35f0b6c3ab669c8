/* A monitor of a chosen refresh rate, for the tests of the refresh-rate path: a RandR mode held
 * on the first CRTC while the connection lasts. */
#include "CRiffleX11TestClients.h"

#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rfx_test_refresh_override {
    Display *dpy;
};

rfx_test_refresh_override *rfx_test_set_refresh_rate(const char *display_name, double hz) {
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy) return NULL;
    Window root = DefaultRootWindow(dpy);
    XRRScreenResources *resources = XRRGetScreenResourcesCurrent(dpy, root);
    if (resources == NULL || resources->ncrtc < 1 || resources->noutput < 1) {
        if (resources) XRRFreeScreenResources(resources);
        XCloseDisplay(dpy);
        return NULL;
    }
    XRRCrtcInfo *crtc = XRRGetCrtcInfo(dpy, resources, resources->crtcs[0]);
    if (crtc == NULL) {
        XRRFreeScreenResources(resources);
        XCloseDisplay(dpy);
        return NULL;
    }
    /* A mode of the CRTC's size with no blanking: the dot clock sets the rate alone. */
    char name[64];
    snprintf(name, sizeof name, "%ux%u_riffle_test", crtc->width, crtc->height);
    XRRModeInfo mode;
    memset(&mode, 0, sizeof mode);
    mode.width = crtc->width;
    mode.height = crtc->height;
    mode.hTotal = crtc->width;
    mode.vTotal = crtc->height;
    mode.dotClock = (unsigned long)(hz * crtc->width * crtc->height + 0.5);
    mode.name = name;
    mode.nameLength = (unsigned int)strlen(name);
    RRMode id = XRRCreateMode(dpy, root, &mode);
    XRRAddOutputMode(dpy, resources->outputs[0], id);
    Status status = XRRSetCrtcConfig(dpy, resources, resources->crtcs[0], CurrentTime, crtc->x, crtc->y, id,
                                     crtc->rotation, crtc->outputs, crtc->noutput);
    XRRFreeCrtcInfo(crtc);
    XRRFreeScreenResources(resources);
    XSync(dpy, False);
    rfx_test_refresh_override *override = status == RRSetConfigSuccess ? calloc(1, sizeof *override) : NULL;
    if (override == NULL) {
        XCloseDisplay(dpy);
        return NULL;
    }
    override->dpy = dpy;
    return override;
}

void rfx_test_refresh_override_close(rfx_test_refresh_override *override) {
    if (!override) return;
    XCloseDisplay(override->dpy);
    free(override);
}
