/* CRiffleImaging: prefixed C shim over libjpeg-turbo, libpng, libexif, FreeType, fontconfig (rfi_). */
