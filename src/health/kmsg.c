/* Reading /dev/kmsg records and telling the events the health check
 * judges (kmsg.h). The words matched are the kernels' own format strings:
 * drivers/pci/pci.c (__pcie_print_link_status), mlx5's cmd.c
 * (mlx5_cmd_out_err, the command timeout), health.c (the miss count),
 * events.c (the port module event, the temperature warning) and en_main.c
 * (Link down), and the "NIC Link is Down" of other Ethernet drivers. */
#include "health/kmsg.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "DDDD:BB:DD.F" at s (PCI's domain:bus:device.function, hex). */
static bool pci_address_at(const char *s)
{
    static const char shape[] = "xxxx:xx:xx.x";
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
            return false;
    return true;
}

/* The device a message names at its front: "DRIVER BDF: " or
 * "DRIVER BDF NETDEV: ". */
static void device_of_text(struct kmsg_record *r)
{
    const char *sp = strchr(r->text, ' ');
    if (!sp || !pci_address_at(sp + 1))
        return;
    snprintf(r->pci, sizeof(r->pci), "%.12s", sp + 1);
    const char *after = sp + 13;
    if (*after == ' ') {
        size_t n = strcspn(after + 1, ": ");
        if (after[1 + n] == ':' && n > 0 && n < sizeof(r->netdev))
            snprintf(r->netdev, sizeof(r->netdev), "%.*s", (int)n, after + 1);
    }
}

bool kmsg_next(const char **p, const char *end, struct kmsg_record *r, bool *bad)
{
    *bad = false;
    while (*p < end && (**p == '\n' || **p == ' ')) {   /* a stray KEY=VALUE line */
        const char *nl = memchr(*p, '\n', (size_t)(end - *p));
        *p = nl ? nl + 1 : end;
    }
    if (*p >= end)
        return false;
    const char *line = *p;
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    const char *eol = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    memset(r, 0, sizeof(*r));
    /* The header: "PRI,SEQ,USEC,FLAGS[,more];" (fields may be added). */
    const char *semi = memchr(line, ';', (size_t)(eol - line));
    char head[128];
    bool good = semi && (size_t)(semi - line) < sizeof(head);
    unsigned long pri = 0;
    if (good) {
        memcpy(head, line, (size_t)(semi - line));
        head[semi - line] = '\0';
        int used = 0;
        good = isdigit((unsigned char)head[0]) &&
               sscanf(head, "%lu,%llu,%llu%n", &pri, &r->seq, &r->usec, &used) == 3 &&
               (head[used] == ',' || head[used] == '\0') && pri < 8 * 1024;
    }
    if (good) {
        r->facility = (int)(pri >> 3);
        r->level = (int)(pri & 7);
        size_t n = (size_t)(eol - semi - 1);
        if (n >= sizeof(r->text))
            n = sizeof(r->text) - 1;
        memcpy(r->text, semi + 1, n);
        r->text[n] = '\0';
        device_of_text(r);
    }
    /* The record's KEY=VALUE lines, each after a space. */
    while (*p < end && **p == ' ') {
        const char *kv = *p + 1;
        const char *knl = memchr(kv, '\n', (size_t)(end - kv));
        const char *kend = knl ? knl : end;
        *p = knl ? knl + 1 : end;
        static const char dev[] = "DEVICE=+pci:";
        size_t len = (size_t)(kend - kv);
        if (good && len == strlen(dev) + 12 && memcmp(kv, dev, strlen(dev)) == 0 &&
            pci_address_at(kv + strlen(dev)))
            snprintf(r->pci, sizeof(r->pci), "%.12s", kv + strlen(dev));
    }
    *bad = !good;
    return good;
}

static bool has(const char *text, const char *what)
{
    return strstr(text, what) != NULL;
}

enum kmsg_event kmsg_classify(const struct kmsg_record *r)
{
    if (r->facility != 0)
        return KMSG_NONE;   /* written by a process, not the kernel */
    const char *t = r->text;
    if (has(t, " available PCIe bandwidth, limited by "))
        return KMSG_PCIE;
    if ((has(t, " op_mod(0x") && has(t, ") failed, status ")) ||
        has(t, " timeout. Will cause a leak of a command resource"))
        return KMSG_FW_COMMAND;
    if (has(t, "health compromised - reached miss count"))
        return KMSG_HEALTH;
    if (has(t, "High temperature on sensors") ||
        (has(t, "Port module event[error]") && has(t, "High Temperature")))
        return KMSG_TEMPERATURE;
    if (has(t, "Port module event[error]"))
        return KMSG_MODULE;
    size_t n = strlen(t);
    if (r->netdev[0] && ((n >= 9 && strcmp(t + n - 9, "Link down") == 0) ||
                         has(t, "NIC Link is Down")))
        return KMSG_LINK_DOWN;
    return KMSG_NONE;
}
