// The support module is header-only (static inline functions); SwiftPM needs one source file.
#include "CStoreLedgerSupport.h"
