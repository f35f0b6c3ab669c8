/* CRiffleX11: prefixed C shim over Xlib, MIT-SHM and XInput2 (rfx_). */
