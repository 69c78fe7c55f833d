/* Tapenade's own runtime, with accessors for the statistics it keeps in static variables when
   built with -D_ADSTACKPROFILE (its traffic counts pushes and pops; its peak is in 64 KiB
   blocks). Compiled by adbench.sh with -I the ADFirstAidKit directory. */
#include "adStack.c"

void stats_reset(void)
{
#ifdef _ADSTACKPROFILE
    pushPopTraffic = 0;
    maxBlocks = 0;
#endif
}
long long pushed(void)
{
#ifdef _ADSTACKPROFILE
    return (long long)(pushPopTraffic / 2);
#else
    return -1;
#endif
}
long long peak(void)
{
#ifdef _ADSTACKPROFILE
    return (long long)maxBlocks * BLOCK_SIZE;
#else
    return -1;
#endif
}
