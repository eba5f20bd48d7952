#include "plan/plan.h"
#include "plan/plan_parts.h"
#include "facts/check_keys.h"
#include "facts/findings.h"
#include "plan/launchers.h"
#include "plan/rank_args.h"
#include "plan/rules.h"
#include "profile/schema.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fabric an `auto` profile should use: pvrdma, then ib, then the
 * fabrics whose NICs say what they are (efa, cxi, opa), then roce. */
static const char *fabric_from_facts(const struct facts *f)
{
    static const char *const order[] = {"pvrdma", "ib", "efa", "cxi", "opa", "roce"};
    struct port_ref s[1];
    for (size_t i = 0; i < sizeof(order) / sizeof(*order); i++)
        if (ports_select(f, order[i], s, 1))
            return order[i];
    return NULL;
}

/* ---- where the ranks run, and the ports nearest to them ---- */

/* The NUMA nodes (indexes into f->numa) this node's ranks occupy, following
 * Open MPI 4.1's mapping: by core when 2 ranks or fewer, else by package,
 * unless --map-by says otherwise. Every NUMA node when the count is unknown. */
static size_t rank_numa(const struct facts *f, long ranks, const char *map_by, bool *used,
                        char **how)
{
    size_t nn = f->nnuma < MAX_NUMA ? f->nnuma : MAX_NUMA;
    memset(used, 0, nn * sizeof(*used));
    if (nn == 0)
        return 0;
    if (ranks <= 0) {
        for (size_t i = 0; i < nn; i++)
            used[i] = true;
        *how = xstrdup("the rank count is not given, so ranks may run on every NUMA node");
        return nn;
    }
    char policy[32] = "";
    if (map_by)
        snprintf(policy, sizeof(policy), "%.*s", (int)strcspn(map_by, ":"), map_by);
    else
        snprintf(policy, sizeof(policy), "%s", ranks <= 2 ? "core" : "package");
    if (strcmp(policy, "socket") == 0)
        snprintf(policy, sizeof(policy), "package");
    int free_cores[MAX_NUMA];
    for (size_t i = 0; i < nn; i++)
        free_cores[i] = f->numa[i].ncores > 0 ? f->numa[i].ncores : 1;
    size_t packages = f->npackages > 0 && nn % (size_t)f->npackages == 0 ? (size_t)f->npackages : 1;
    size_t per_pkg = nn / packages;
    for (long r = 0; r < ranks; r++) {
        /* Where round-robin policies start looking for this rank. */
        size_t start = strcmp(policy, "numa") == 0 ? (size_t)r % nn
                     : strcmp(policy, "package") == 0 ? ((size_t)r % packages) * per_pkg : 0;
        size_t k, n = start;
        for (k = 0; k < nn && free_cores[n] == 0; k++)
            n = (n + 1) % nn;
        if (k == nn) {
            /* Oversubscribed: every NUMA node is used. */
            for (size_t i = 0; i < nn; i++)
                used[i] = true;
            break;
        }
        free_cores[n]--;
        used[n] = true;
    }
    size_t count = 0;
    for (size_t i = 0; i < nn; i++)
        count += used[i];
    *how = xasprintf("%ld rank%s mapped by %s%s", ranks, ranks == 1 ? "" : "s", policy,
                     map_by ? "" : " (Open MPI's default)");
    return count;
}

/* Of `all` ports, those nearest to the NUMA nodes in `used` (in `all`'s
 * order); the NUMA nodes with no local port go into `remote`. */
static size_t nearest_ports(const struct facts *f, const bool *used, const struct port_ref *all,
                            size_t nall, struct port_ref *out, struct strvec *remote)
{
    bool pick[MAX_PORTS] = {false};
    size_t nn = f->nnuma < MAX_NUMA ? f->nnuma : MAX_NUMA;
    if (nall == 0)
        return 0;
    for (size_t n = 0; n < nn; n++) {
        if (!used[n])
            continue;
        struct port_ref near[MAX_PORTS];
        bool local;
        size_t nnear = ports_nearest(f, &n, 1, all, nall, near, &local);
        for (size_t k = 0; k < nnear; k++)
            for (size_t i = 0; i < nall; i++)
                pick[i] |= all[i].port == near[k].port;
        if (!local)
            sv_pushf(remote, "%d", f->numa[n].os_index);
    }
    size_t n = 0;
    for (size_t i = 0; i < nall; i++)
        if (pick[i] || nn == 0)
            out[n++] = all[i];
    return n;
}

/* ---- the profile's values as items ---- */

/* [bind] keys for rdmarun's own placement, not mpirun options. */
static bool placement_key(const char *key)
{
    return strcmp(key, "policy") == 0 || strcmp(key, "memory") == 0 ||
           strcmp(key, "nics") == 0 || strcmp(key, "threads") == 0 || strcmp(key, "smt") == 0;
}

static void items_from_profile(struct plan *p, const struct profile *prof)
{
    for (size_t i = 0; i < prof->n; i++) {
        const struct entry *e = &prof->e[i];
        const char *s = e->section;
        const struct sectiondef *sec = schema_section(s);
        if (sec && sec->keyset == KEYS_MCA) {
            plan_add_item(p, ITEM_MCA, SOURCE_PROFILE, e->key, e->value, entry_origin(e), NULL);
        } else if (sec && (sec->prefix || sec->keyset == KEYS_ENV)) {
            char *name = xasprintf("%s%s", sec->prefix ? sec->prefix : "", e->key);
            plan_add_item(p, ITEM_ENV, SOURCE_PROFILE, name, e->value, entry_origin(e), NULL);
            free(name);
        } else if (strcmp(s, "bind") == 0 && !placement_key(e->key)) {
            char *name = xasprintf("--%s", e->key);
            plan_add_item(p, ITEM_OPTION, SOURCE_PROFILE, name, e->value, entry_origin(e), NULL);
            free(name);
        }
    }
}

static void apply_rules(struct plan *p, const struct facts *f, const struct port_ref *ports,
                        size_t nports)
{
    for (size_t r = 0; r < nrules; r++) {
        const struct rule *rule = &rules[r];
        const struct plan_item *pml = plan_find(p, ITEM_MCA, "pml");
        const struct plan_item *tls = plan_find(p, ITEM_ENV, "UCX_TLS");
        struct rule_context ctx = {
            .fabric = p->fabric, .ucx_version = f->ucx_version, .facts = f, .ports = ports,
            .nports = nports,
            .pml = pml ? pml->value : NULL, .ucx_tls = tls ? tls->value : NULL,
        };
        if (!rule_applies(rule, &ctx))
            continue;
        enum item_kind kind = strcmp(rule->section, "mpi") == 0 ? ITEM_MCA : ITEM_ENV;
        char *name = kind == ITEM_MCA ? xstrdup(rule->key)
                                      : xasprintf("%s_%s", strcmp(rule->section, "ucx") == 0 ?
                                                  "UCX" : "NCCL", rule->key);
        const struct plan_item *have = plan_find(p, kind, name);
        const char *value = rule->value ? rule->value : rule->value_of(&ctx);
        if (!have) {
            plan_add_item(p, kind, SOURCE_RULE, name, value, xasprintf("rule:%s", rule->id),
                          xasprintf("%s (%s; applies to %s)", rule->reason, rule->upstream,
                                    rule->applies_to));
        } else if (!have->value || strcmp(have->value, value) != 0) {
            sv_pushf(&p->notes, "rule %s would set %s=%s (%s); kept %s from %s", rule->id, name,
                     value, rule->reason, have->value ? have->value : "(unset)",
                     have->origin);
        }
        free(name);
    }
}

/* Transports only mlx5 devices have (UCX's accelerated verbs). */
static bool mlx5_only(const char *tl)
{
    static const char *const names[] = {"rc_mlx5", "dc_mlx5", "ud_mlx5", "rc_x", "dc_x",
                                        "ud_x", "dc"};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        if (strcmp(tl, names[i]) == 0)
            return true;
    return false;
}

/* A profile asking for rc_x on a vmw_pvrdma or rxe device would make UCX find
 * no RDMA transport and fall back; refuse it with the reason instead. */
static void check_tls_devices(struct plan *p, const struct port_ref *ports, size_t nports)
{
    const struct plan_item *tls = plan_find(p, ITEM_ENV, "UCX_TLS");
    if (!tls || !tls->value || tls->overridden || tls->value[0] == '^' || nports == 0)
        return;
    for (size_t i = 0; i < nports; i++)
        if (starts_with(ports[i].dev->driver, "mlx5"))
            return;
    struct strvec items = {0};
    sv_split(&items, tls->value, ",");
    for (size_t i = 0; i < items.n; i++) {
        items.v[i][strcspn(items.v[i], ":")] = '\0';
        if (mlx5_only(items.v[i])) {
            plan_fail(p, RR_EX_CONFIG,
                 xasprintf("UCX_TLS (%s) asks for %s, which only mlx5 devices have; %s is "
                           "driven by %s (hint: use rc_verbs,ud_verbs:aux, or the 'rc' alias, "
                           "which falls back to verbs)", tls->origin, items.v[i],
                           ports[0].dev->name, ports[0].dev->driver));
            break;
        }
    }
    sv_free(&items);
}

/* What the verdict should be for this profile, unless it says otherwise. */
static enum expectation expected_from_fabric(const char *fabric)
{
    const struct fabric_row *row = fabric_row(fabric);
    int e = row ? name_index(expectation_names, row->expect) : -1;
    return e >= 0 ? (enum expectation)e : EXPECT_ANY;
}

static void mark_overrides(struct plan *p, const struct job_args *job)
{
    for (size_t i = 0; i < p->n; i++) {
        struct plan_item *it = &p->items[i];
        const struct strvec *given = it->kind == ITEM_ENV ? &job->user_env
                                   : it->kind == ITEM_MCA ? &job->user_mca : &job->user_opts;
        const char *name = it->kind == ITEM_OPTION ? it->name + 2 : it->name;
        it->overridden = sv_find(given, name) >= 0;
        /* -x OMPI_MCA_pml=ob1 sets the MCA parameter too: the ranks read it
         * from their environment, which Open MPI 5 ranks below its own
         * --mca pml (4.1 above), so the profile's must not be passed. */
        if (it->kind == ITEM_MCA && !it->overridden) {
            char *var = xasprintf("OMPI_MCA_%s", it->name);
            it->overridden = sv_find(&job->user_env, var) >= 0;
            free(var);
        }
    }
}

/* The program's MPI (--mpi, else [profile] mpi, else the library the
 * program is linked with, else Open MPI), then the launcher that starts
 * it: Hydra's mpiexec for MPICH, Open MPI's mpirun otherwise, unless
 * --launcher or the profile names one. A launcher of the other MPI cannot
 * start the program: refused, with the one that can. */
static void plan_mpi(struct plan *p, const struct profile *prof, const struct plan_request *rq)
{
    int found = rq->program_mpi;
    bool wrapped = found < 0 && rq->wrapped_mpi >= 0;
    setting_resolve(&p->mpi, mpi_family_names, rq->mpi, "--mpi", prof, "profile", "mpi",
                    found >= 0 ? found : wrapped ? rq->wrapped_mpi : MPI_OPENMPI);
    if (strcmp(p->mpi.origin, "default") == 0 && (found >= 0 || wrapped)) {
        free(p->mpi.origin);
        p->mpi.origin = wrapped ? xstrdup("rdmarun's drop-in mpiexec.hydra")
                      : xasprintf("%s links %s",
                                  rq->job->program.n ? rq->job->program.v[0] : "the program",
                                  rq->program_mpi_lib ? rq->program_mpi_lib : "it");
    }
    bool mpich = MPI_MPICH_ABI(p->mpi.value);
    if (found >= 0 && found != p->mpi.value)
        plan_fail(p, RR_EX_USAGE, xasprintf("%s links %s, %s's library, but %s says %s: started "
                  "by the other MPI's launcher, its ranks would each run alone, as singletons "
                  "(hint: leave the MPI to rdmarun, which reads it from the program)",
                  rq->job->program.v[0], rq->program_mpi_lib,
                  mpi_family_titles[found], p->mpi.origin,
                  mpi_family_names[p->mpi.value]));
    setting_resolve(&p->launcher, launcher_words(), rq->launcher, "--launcher", prof, "profile",
                    "launcher", mpich ? LAUNCHER_HYDRA : LAUNCHER_MPIRUN);
    const struct launcher_desc *l = launcher_of(p->launcher.value);
    if (l->mpich_abi >= 0 && l->mpich_abi != mpich)
        plan_fail(p, RR_EX_USAGE, xasprintf("the program's MPI is %s (%s), which %s (%s) cannot "
                  "start (hint: %s)", mpi_family_titles[p->mpi.value], p->mpi.origin,
                  l->title, p->launcher.origin, l->other_mpi_hint));
}

/* Each MPI's parameter vocabulary: Open MPI's MCA parameters (the
 * profile's [mpi], the rules' pml ucx ...), MPICH's control variables (the
 * profile's [mpich], as MPIR_CVAR_*: Intel MPI reads them too) and Intel
 * MPI's variables ([impi], as I_MPI_*). The other MPIs' are left out of the
 * job, named in one note. */
static const char *const vocabularies[] = {"Open MPI's MCA parameters",
                                           "MPICH's control variables", "Intel MPI's variables"};

/* The vocabulary of another MPI the item belongs to (an index of
 * vocabularies[]), or -1 when it is the job's MPI's or everyone's. */
static int foreign_to(const struct plan_item *it, int mpi)
{
    bool profile_env = it->kind == ITEM_ENV && it->source == SOURCE_PROFILE;
    if (it->kind == ITEM_MCA && MPI_MPICH_ABI(mpi))
        return 0;
    if (profile_env && starts_with(it->name, "MPIR_CVAR_") && mpi == MPI_OPENMPI)
        return 1;
    if (profile_env && starts_with(it->name, "I_MPI_") && mpi != MPI_IMPI)
        return 2;
    return -1;
}

static void drop_other_mpi(struct plan *p)
{
    struct strvec names[3] = {{0}};
    size_t kept = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_item *it = &p->items[i];
        int k = foreign_to(it, p->mpi.value);
        if (k >= 0) {
            sv_pushf(&names[k], "%s=%s (%s)", it->name, it->value ? it->value : "", it->origin);
            plan_item_free(&p->items[i]);
        } else {
            p->items[kept++] = p->items[i];
        }
    }
    p->n = kept;
    for (size_t k = 0; k < 3; k++) {
        if (!names[k].n)
            continue;
        char *list = sv_join(&names[k], ", ");
        sv_pushf(&p->details, "%s: %s %s do not apply: left out", mpi_family_titles[p->mpi.value],
                 vocabularies[k], list);
        free(list);
        sv_free(&names[k]);
    }
}

/* Each launcher's file turns the plan into its command (plan/launchers.h). */
static void build_argv(struct plan *p, const struct plan_request *rq)
{
    launcher_of(p->launcher.value)->argv(p, rq);
}

void plan_port_of(struct plan_port *pp, const struct rdma_device *d, const struct rdma_port *port,
                  int gid_index)
{
    const struct gid_entry *g = port_best_gid(port);
    snprintf(pp->name, sizeof(pp->name), "%s:%d", d->name, port->num);
    pp->dev = d;
    pp->port = port;
    pp->gid_index = gid_index >= 0 ? gid_index
                  : strcmp(port->link_layer, "Ethernet") == 0 && g ? g->index : -1;
}

/* UCX_NET_DEVICES as the ports it names on this node, each with the job's
 * GID index (UCX_IB_GID_INDEX, else the routable RoCE v2 one on Ethernet):
 * what preflight tests. A device without a port names all its ports; a
 * name this node lacks stays, without a device, for preflight to report. */
static void plan_ports(struct plan *p, const struct facts *f)
{
    const struct plan_item *dev = plan_find(p, ITEM_ENV, "UCX_NET_DEVICES");
    const struct plan_item *gid = plan_find(p, ITEM_ENV, "UCX_IB_GID_INDEX");
    long gid_index = -1;
    char *end;
    if (gid && gid->value) {
        gid_index = strtol(gid->value, &end, 10);
        if (*end || end == gid->value || gid_index < 0)
            gid_index = -1;
    }
    struct strvec names = {0};
    if (dev && dev->value)
        sv_split(&names, dev->value, ",");
    for (size_t k = 0; k < names.n && p->nports < MAX_PORTS; k++) {
        bool found = false;
        for (size_t i = 0; i < f->ndevs; i++) {
            const struct rdma_device *d = &f->devs[i];
            for (size_t j = 0; j < d->nports && p->nports < MAX_PORTS; j++) {
                char name[80];
                snprintf(name, sizeof(name), "%s:%d", d->name, d->ports[j].num);
                if (strcmp(names.v[k], d->name) != 0 && strcmp(names.v[k], name) != 0)
                    continue;
                plan_port_of(&p->ports[p->nports++], d, &d->ports[j],
                             gid && gid->value ? (int)gid_index : -1);
                found = true;
            }
        }
        if (!found && p->nports < MAX_PORTS) {
            struct plan_port *pp = &p->ports[p->nports++];
            snprintf(pp->name, sizeof(pp->name), "%s", names.v[k]);
            pp->gid_index = (int)gid_index;
        }
    }
    if (names.n > MAX_PORTS)
        sv_pushf(&p->notes, "UCX_NET_DEVICES names %zu devices; rdmarun checks the first %d "
                 "(MAX_PORTS): UCX still gets the whole list", names.n, MAX_PORTS);
    sv_free(&names);
}

/* fabric = auto: the profile of the fabric the node's ACTIVE ports have,
 * among the candidates (*prof and *fabric set), or none: shared memory and
 * TCP, with a note on each ACTIVE device that is neither IB nor RoCE. */
static void choose_auto(struct plan *out, const struct plan_request *rq,
                        const struct profile **prof, const char **fabric)
{
    const char *found = fabric_from_facts(rq->facts);
    const char *want = found ? fabric_row(found)->auto_profile : NULL;
    const struct profile *choice = NULL;
    for (size_t i = 0; found && i < rq->ncandidates; i++)
        if (strcmp(rq->candidates[i]->name, want) == 0)
            choice = rq->candidates[i];
    if (found && !choice) {
        plan_fail(out, RR_EX_NOINPUT, xasprintf("this node has an ACTIVE %s port but no profile "
                  "named '%s' was found to use it", fabric_label(found), want));
        return;
    }
    if (choice) {
        sv_pushf(&out->notes, "auto: chose profile '%s': the node has an ACTIVE %s port",
                 want, fabric_label(found));
        *prof = choice;
        *fabric = found;
        return;
    }
    sv_push(&out->notes, "auto: no ACTIVE RDMA port on this node: the job runs over shared "
            "memory within a node and TCP between nodes, not RDMA");
    for (size_t i = 0; i < rq->facts->ndevs; i++) {
        const struct rdma_device *d = &rq->facts->devs[i];
        if (d->nports && port_is_active(&d->ports[0]))
            sv_pushf(&out->notes, "%s (driver %s) is ACTIVE but no fabric of rdmarun's "
                     "profiles covers it", d->name, d->driver);
    }
    *fabric = "none";
}

/* rdmarun's own settings: option, else profile, else default. */
static void plan_settings(struct plan *out, const struct profile *prof,
                          const struct plan_request *rq, const char *fabric)
{
    setting_resolve(&out->verify, verify_policy_names, rq->verify, "--verify", prof, "profile",
                    "verify", VERIFY_WARN);
    setting_resolve(&out->bind, bind_policy_names, rq->bind_policy, "--bind-policy", prof, "bind",
                    "policy", BIND_NONE);
    setting_resolve(&out->memory, memory_policy_names, NULL, NULL, prof, "bind", "memory",
                    MEMORY_PREFER);
    setting_resolve(&out->nics, nic_choice_names, NULL, NULL, prof, "bind", "nics", NICS_ONE);
    setting_resolve(&out->expect, expectation_names, NULL, NULL, prof, "profile", "expect",
                    expected_from_fabric(fabric));
    if (strcmp(out->expect.origin, "default") == 0) {
        free(out->expect.origin);
        out->expect.origin = xasprintf("fabric %s", fabric);
    }
}

/* A profile rdmarun tune measured on another kind of node: its gains were
 * measured there. */
static void tuned_elsewhere(struct plan *out, const struct profile *prof,
                            const struct facts *facts)
{
    const struct entry *tuned = profile_get(prof, "profile", "tuned-for");
    if (!tuned || !*tuned->value)
        return;
    char *fp = facts_fingerprint(facts);
    if (strcmp(fp, tuned->value) != 0) {
        char *kind = facts_kind(facts), *origin = entry_origin(tuned);
        sv_pushf(&out->notes, "warning: the profile was tuned on another kind of node (tuned-for "
                 "%s, %s; this node is %s: %s): its measured gains may not hold here (hint: "
                 "rdmarun tune on this kind of node)", tuned->value, origin, fp, kind);
        free(kind);
        free(origin);
    }
    free(fp);
}

/* The fabric's ports nearest the NUMA nodes the ranks run on (*where says
 * which and why, for auto values' reasons); how many. An RDMA profile on a
 * node without an ACTIVE port of its fabric fails the plan. */
static size_t job_ports(struct plan *out, const struct profile *prof,
                        const struct plan_request *rq, const char *fabric,
                        struct port_ref *ports, char **where)
{
    struct port_ref all[MAX_PORTS];
    size_t nall = ports_select(rq->facts, fabric, all, MAX_PORTS);
    size_t beyond = ports_over_cap(rq->facts, fabric);
    if (beyond)
        sv_pushf(&out->notes, "this node has %zu ACTIVE %s ports; the plan chooses among the "
                 "first %d in device order and leaves %zu unused (rdmarun's MAX_PORTS)",
                 (size_t)MAX_PORTS + beyond, fabric_label(fabric), MAX_PORTS, beyond);
    bool used[MAX_NUMA];
    char *how = NULL;
    long ranks = rq->job->ppn > 0 ? rq->job->ppn : rq->job->np;
    const char *map_by = rq->job->map_by ? rq->job->map_by : profile_value(prof, "bind", "map-by");
    bool exec = launcher_of(out->launcher.value)->command_is_launcher;
    rank_numa(rq->facts, exec ? -1 : ranks, map_by, used, &how);
    if (exec) {   /* COMMAND maps its workers, not Open MPI */
        free(how);
        how = xstrdup("COMMAND's workers may run on every NUMA node");
    }
    struct strvec remote = {0}, local = {0};
    size_t nports = nearest_ports(rq->facts, used, all, nall, ports, &remote);
    for (size_t n = 0; n < rq->facts->nnuma && n < MAX_NUMA; n++)
        if (used[n])
            sv_pushf(&local, "%d", rq->facts->numa[n].os_index);
    char *numas = sv_join(&local, ",");
    *where = rq->facts->nnuma == 0 ? xstrdup("(no topology known)")
           : xasprintf("nearest to NUMA %s, where the ranks run (%s)", numas, how);
    if (remote.n) {
        char *r = sv_join(&remote, ",");
        sv_pushf(&out->notes, "no ACTIVE %s port is local to NUMA %s: ranks there use a port "
                 "on another NUMA node", fabric_label(fabric), r);
        free(r);
    }
    free(numas);
    free(how);
    sv_free(&remote);
    sv_free(&local);
    if (fabric_has_ports(fabric) && nall == 0)
        plan_fail(out, RR_EX_UNAVAILABLE,
             xasprintf("profile '%s' is for %s but this node has no ACTIVE %s port (%zu RDMA "
                       "device%s found) (hint: 'ibv_devinfo' shows the ports; use -p auto or "
                       "-p tcp to run without RDMA)", prof->name, fabric_label(fabric),
                       fabric_label(fabric),
                       rq->facts->ndevs, rq->facts->ndevs == 1 ? "" : "s"));
    return nports;
}

/* The profile's auto values resolved from the node's facts and ports. */
static void resolve_autos(struct plan *out, const struct profile *prof, const struct facts *f,
                          const struct port_ref *ports, size_t nports, const char *where)
{
    for (size_t i = 0; i < prof->n; i++) {
        const struct entry *e = &prof->e[i];
        if (!str_ieq(e->value, "auto") || !schema_resolvable(e->section, e->key))
            continue;
        char *name = xasprintf("%s_%s", strcmp(e->section, "ucx") == 0 ? "UCX" : "NCCL", e->key);
        struct plan_item *it = (struct plan_item *)plan_find(out, ITEM_ENV, name);
        if (strcmp(e->key, "NET_GDR_LEVEL") == 0)
            plan_resolve_gdr_level(it, f, ports, nports);
        else
            plan_resolve_auto(out, it, e->section, e->key, ports, nports, where);
        free(name);
    }
}

void plan_build(const struct plan_request *rq, struct plan *out)
{
    memset(out, 0, sizeof(*out));
    const struct profile *prof = rq->profile;
    out->profile = xstrdup(prof->name);
    const char *fabric = profile_value(prof, "profile", "fabric");
    fabric = fabric ? fabric : "auto";
    if (strcmp(fabric, "auto") == 0)
        choose_auto(out, rq, &prof, &fabric);
    out->chosen = xstrdup(prof->name);
    sv_append(&out->files, &prof->files);
    out->fabric = xstrdup(fabric);
    out->ucx_version = rq->facts->ucx_version ? xstrdup(rq->facts->ucx_version) : NULL;
    plan_mpi(out, prof, rq);
    /* The MPI library mpirun's ranks load; COMMAND's are its own. */
    out->job_nodes = plan_job_nodes(rq);
    out->mpi_library = rq->mpi_library && !launcher_of(out->launcher.value)->command_is_launcher
                     ? xstrdup(rq->mpi_library) : NULL;
    plan_settings(out, prof, rq, fabric);
    tuned_elsewhere(out, prof, rq->facts);
    struct port_ref ports[MAX_PORTS];
    char *where = NULL;
    size_t nports = job_ports(out, prof, rq, fabric, ports, &where);
    items_from_profile(out, prof);
    sv_append(&out->notes, &prof->passed);
    resolve_autos(out, prof, rq->facts, ports, nports, where);
    free(where);
    apply_rules(out, rq->facts, ports, nports);
    if (!plan_find(out, ITEM_ENV, "NCCL_TOPO_FILE"))
        cloud_warnings(rq->facts, &out->notes);   /* what NCCL will miss */
    if (plan_verifies(out) && rq->evidence_dir) {
        out->evidence_dir = xstrdup(rq->evidence_dir);
        out->evidence_made = rq->evidence_made;
        out->evidence_prune = rq->evidence_prune;
        plan_evidence(out, rq->evidence_dir, rq->job, rq->impi_debug);
    }
    plan_strict_switches(out, rq->facts);
    plan_harmful_settings(out, rq->facts);
    plan_fabric_libs(out, rq->facts);
    mark_overrides(out, rq->job);
    plan_threads(out, prof, rq);
    plan_placement(out, rq);
    check_tls_devices(out, ports, nports);
    plan_ports(out, rq->facts);
    plan_checks(out, prof, rq->facts, ports, nports);
    plan_path(out, prof, rq);
    drop_other_mpi(out);
    build_argv(out, rq);
}
