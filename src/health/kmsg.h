/* The kernel's log as /dev/kmsg gives it, one record per read:
 *   "PRI,SEQ,USEC,FLAGS[,...];TEXT\n" then " KEY=VALUE\n" lines
 * (Documentation/ABI/testing/dev-kmsg). PRI is facility * 8 + level; the
 * kernel's own records are facility 0, and what a process writes to
 * /dev/kmsg is never facility 0, so only the kernel's are judged. USEC is
 * the time since boot. Non-printable bytes come escaped as \xNN. Drivers
 * name their device at the front of TEXT ("mlx5_core 0000:3b:00.0: ...",
 * netdev messages "mlx5_core 0000:3b:00.0 ens1f0np0: ...") and in the
 * DEVICE=+pci:BDF line. */
#ifndef RDMARUN_KMSG_H
#define RDMARUN_KMSG_H
#include <stdbool.h>
#include <stddef.h>

enum kmsg_event {
    KMSG_NONE,
    KMSG_PCIE,          /* "... available PCIe bandwidth, limited by ... x8 link at ..." */
    KMSG_FW_COMMAND,    /* mlx5: a firmware command failed or timed out */
    KMSG_HEALTH,        /* mlx5: the firmware's health counter stopped */
    KMSG_MODULE,        /* mlx5: "Port module event[error]": the transceiver or cable */
    KMSG_TEMPERATURE,   /* mlx5: a module or sensor too hot */
    KMSG_LINK_DOWN,     /* a netdev's link went down ("Link down", "NIC Link is Down") */
};
#define KMSG_EVENTS 7

struct kmsg_record {
    int facility, level;
    unsigned long long seq, usec;
    char text[1024];     /* the message, cut there */
    char pci[16];        /* the device's PCI address, "" when none is named */
    char netdev[16];     /* the netdev a netdev message names, "" when none */
};

/* The record at *p (before end), advancing *p past it and its KEY=VALUE
 * lines. False when *p holds no record; a malformed one is skipped (*p
 * still advances) and reported false with *bad set. */
bool kmsg_next(const char **p, const char *end, struct kmsg_record *r, bool *bad);
/* What a record says, for the health check: KMSG_NONE for what it does not
 * judge (and for every record not from the kernel itself). */
enum kmsg_event kmsg_classify(const struct kmsg_record *r);

#endif
