#include "CRiffleImaging.h"
