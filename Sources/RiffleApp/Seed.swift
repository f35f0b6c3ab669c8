// RiffleApp
