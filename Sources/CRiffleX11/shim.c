#include "CRiffleX11.h"
