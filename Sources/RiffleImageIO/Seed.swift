// RiffleImageIO
