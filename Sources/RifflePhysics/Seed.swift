// RifflePhysics
