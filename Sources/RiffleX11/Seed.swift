// RiffleX11
