/* rdmarun: subcommand dispatch. Each command is a slice of the pipeline
 * profile -> facts -> plan -> launch (see docs/DESIGN.md). */
#include "check.h"
#include "cli.h"
#include "evidence/evidence.h"
#include "facts.h"
#include "launch.h"
#include "plan.h"
#include "profile.h"
#include "schema.h"
#include "supervise.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/xalloc.h"
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Profiles an `auto` profile may choose, by fabric. */
static const char *const auto_candidates[] = {"ib", "roce", "pvrdma"};
#define NCANDIDATES (sizeof(auto_candidates) / sizeof(*auto_candidates))

/* Load, apply the environment and --set, validate. */
static int load_profile(const char *name, const struct cmdline *cl, const struct strvec *dirs,
                        struct profile *p)
{
    int rc = profile_load(name, dirs, p);
    if (!rc)
        rc = profile_apply_env(p, environ);
    for (size_t i = 0; !rc && i < cl->sets.n; i++)
        rc = profile_apply_set(p, cl->sets.v[i]);
    if (!rc)
        rc = profile_validate(p);
    return rc;
}

static int cmd_profiles(const struct cmdline *cl, const struct strvec *dirs)
{
    struct profile_info *list;
    size_t n;
    profile_list(dirs, &list, &n);
    if (cl->json) {
        struct json j;
        json_init(&j, stdout);
        json_begin_array(&j, NULL);
        for (size_t i = 0; i < n; i++) {
            json_begin_object(&j, NULL);
            json_string(&j, "name", list[i].name);
            json_string(&j, "description", list[i].description);
            json_string(&j, "path", list[i].path);
            json_bool(&j, "shadowed", list[i].shadowed);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_finish(&j);
    } else if (n == 0) {
        char *path = sv_join(dirs, ":");
        rr_warn("no profiles found (searched %s)", path);
        free(path);
    } else {
        for (size_t i = 0; i < n; i++)
            printf("%-12s %-60s %s%s\n", list[i].name,
                   list[i].description ? list[i].description : "", list[i].path,
                   list[i].shadowed ? " (shadowed)" : "");
    }
    profile_info_free(list, n);
    return 0;
}

static int cmd_profiles_show(const struct cmdline *cl, const struct strvec *dirs)
{
    struct profile p;
    int rc = load_profile(cl->show_name, cl, dirs, &p);
    if (rc) {
        profile_free(&p);
        return rc;
    }
    struct json j;
    if (cl->json) {
        json_init(&j, stdout);
        json_begin_object(&j, NULL);
        json_string(&j, "name", p.name);
        json_begin_array(&j, "files");
        for (size_t i = 0; i < p.files.n; i++)
            json_string(&j, NULL, p.files.v[i]);
        json_end_array(&j);
        json_begin_array(&j, "values");
    } else {
        printf("# profile %s\n", p.name);
        for (size_t i = 0; i < p.files.n; i++)
            printf("# file: %s\n", p.files.v[i]);
    }
    for (size_t s = 0; s < schema_nsections; s++) {
        bool header = false;
        for (size_t i = 0; i < p.n; i++) {
            const struct entry *e = &p.e[i];
            if (strcmp(e->section, schema_sections[s].name) != 0 || e->kind == ORIGIN_DEFAULT)
                continue;
            char *origin = entry_origin(e);
            if (cl->json) {
                json_begin_object(&j, NULL);
                json_string(&j, "section", e->section);
                json_string(&j, "key", e->key);
                json_string(&j, "value", e->value);
                json_string(&j, "origin", origin);
                json_end_object(&j);
            } else {
                if (!header)
                    printf("\n[%s]\n", e->section);
                header = true;
                int width = (int)(strlen(e->key) + strlen(e->value) + 3);
                printf("%s = %s%*s ; %s\n", e->key, e->value, width < 40 ? 40 - width : 0, "",
                       origin);
            }
            free(origin);
        }
    }
    if (cl->json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    }
    profile_free(&p);
    return 0;
}

static int cmd_check(const struct cmdline *cl)
{
    if (!cl->qp_test) {
        rr_error("'check' needs --qp-test (the only check so far)");
        return RR_EX_USAGE;
    }
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts};
    int rc = facts_gather(&f, &src);
    if (!rc)
        rc = check_qp_ports(&f, cl->device, cl->gid_index, false);
    facts_free(&f);
    return rc;
}

static int cmd_verify(const struct cmdline *cl)
{
    struct evidence ev = {0};
    int rc = 0;
    for (size_t i = 0; i < cl->program.n && !rc; i++)
        rc = evidence_read(&ev, cl->program.v[i]);
    if (!rc) {
        enum verdict v = evidence_verdict(&ev);
        if (cl->json) {
            evidence_print_json(&ev, v, stdout);
        } else {
            char *summary = verdict_summary(&ev, v);
            printf("rdmarun: %s\n", summary);
            free(summary);
        }
        static const int status[] = {0, RR_EX_FALLBACK, RR_EX_LOCAL, RR_EX_NO_EVIDENCE};
        rc = status[v];
    }
    evidence_free(&ev);
    return rc;
}

static int cmd_probe(const struct cmdline *cl)
{
    struct facts f;
    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts};
    int rc = facts_gather(&f, &src);
    if (!rc) {
        if (cl->json)
            facts_print_json(&f, stdout);
        else
            facts_print_text(&f, stdout);
    }
    facts_free(&f);
    return rc;
}

/* One line on stderr before launch: what rdmarun set, so job logs record it. */
static void print_summary(const struct plan *p)
{
    fprintf(stderr, "rdmarun: profile %s", p->chosen);
    if (strcmp(p->profile, p->chosen) != 0)
        fprintf(stderr, " (chosen by %s)", p->profile);
    fprintf(stderr, ", fabric %s:", p->fabric);
    for (size_t i = 0; i < p->n; i++)
        if (!p->items[i].overridden && p->items[i].value &&
            strcmp(p->items[i].origin, "evidence") != 0)
            fprintf(stderr, " %s=%s", p->items[i].name, p->items[i].value);
    if (p->evidence_dir)
        fprintf(stderr, "; verify %s, evidence in %s", p->policy, p->evidence_dir);
    fputc('\n', stderr);
    for (size_t i = 0; i < p->notes.n; i++)
        fprintf(stderr, "rdmarun: %s\n", p->notes.v[i]);
}

/* Before an RDMA job, with verify on: the QP test on the ports the plan
 * chose. strict refuses to launch on a failure, warn says so and goes on. */
static int preflight(const struct plan *p, const struct facts *f)
{
    const struct plan_item *dev = plan_find(p, ITEM_ENV, "UCX_NET_DEVICES");
    const struct plan_item *gid = plan_find(p, ITEM_ENV, "UCX_IB_GID_INDEX");
    if (strcmp(p->policy, "off") == 0 || strcmp(p->expect, "rdma") != 0 || !dev || !dev->value)
        return 0;
    struct strvec ports = {0};
    sv_split(&ports, dev->value, ",");
    int rc = 0;
    for (size_t i = 0; i < ports.n && !rc; i++)
        rc = check_qp_ports(f, ports.v[i], gid ? gid->value : NULL, true);
    sv_free(&ports);
    if (rc && strcmp(p->policy, "strict") == 0) {
        rr_error("preflight QP test failed: not starting the job (verify = strict)");
        return rc;
    }
    if (rc)
        rr_warn("preflight QP test failed; starting the job anyway (verify = warn)");
    return 0;
}

/* Each job its own evidence directory, under the working directory by
 * default (on clusters a shared file system, so every node's ranks write
 * where the launch node reads). */
static char *evidence_dir(const struct cmdline *cl)
{
    const char *base = cl->evidence_dir ? cl->evidence_dir : getenv("RDMARUN_EVIDENCE_DIR");
    if (base && *base && cl->evidence_dir)
        return xstrdup(base);   /* --evidence-dir names the job's own directory */
    char host[64] = "host", cwd[4096];
    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    if (!base || !*base)
        base = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
    return xasprintf("%s%srdmarun-evidence/%s.%ld.%ld", base, base[strlen(base) - 1] == '/' ? "" : "/",
                     host, (long)getpid(), (long)time(NULL));
}

static int cmd_run(const struct cmdline *cl, const struct strvec *dirs)
{
    const char *name = cl->profile ? cl->profile : getenv("RDMARUN_PROFILE");
    if (!name || !*name)
        name = "auto";
    struct profile prof, cands[NCANDIDATES];
    const struct profile *candp[NCANDIDATES];
    size_t ncands = 0;
    struct facts facts = {0};
    struct plan plan;
    int rc = load_profile(name, cl, dirs, &prof);
    const char *fabric = rc ? NULL : profile_value(&prof, "profile", "fabric");
    for (size_t i = 0; !rc && fabric && strcmp(fabric, "auto") == 0 && i < NCANDIDATES; i++) {
        char *path = profile_find(auto_candidates[i], dirs);
        if (!path)
            continue;
        free(path);
        rc = load_profile(auto_candidates[i], cl, dirs, &cands[ncands]);
        candp[ncands] = &cands[ncands];
        ncands++;
    }
    if (rc)
        goto out_profiles;

    struct facts_sources src = {cl->sysfs, cl->topology, cl->facts};
    rc = facts_gather(&facts, &src);
    if (rc)
        goto out_facts;
    char *mpirun = launch_find_mpirun(cl->mpirun);
    if (!mpirun && !cl->dry_run) {
        rr_error("mpirun not found on PATH (hint: apt-get install openmpi-bin, or give its path "
                 "with --mpirun or RDMARUN_MPIRUN)");
        rc = RR_EX_NOTFOUND;
        goto out_facts;
    }
    char *evdir = evidence_dir(cl);
    struct plan_input in = {
        .profile = &prof, .candidates = candp, .ncandidates = ncands, .facts = &facts,
        .cmd = cl, .mpirun = mpirun ? mpirun : "mpirun", .evidence_dir = evdir,
    };
    plan_build(&in, &plan);
    if (cl->dry_run) {
        if (cl->json)
            plan_print_json(&plan, stdout);
        else
            plan_print_text(&plan, stdout);
        rc = plan.status;
    } else if (plan.status) {
        for (size_t i = 0; i < plan.errors.n; i++)
            rr_error("%s", plan.errors.v[i]);
        rc = plan.status;
    } else {
        print_summary(&plan);
        rc = preflight(&plan, &facts);
        if (!rc)
            rc = plan.evidence_dir ? supervise(&plan, &facts) : launch_exec(&plan.argv);
    }
    plan_free(&plan);
    free(evdir);
    free(mpirun);
out_facts:
    facts_free(&facts);
out_profiles:
    for (size_t i = 0; i < ncands; i++)
        profile_free(&cands[i]);
    profile_free(&prof);
    return rc;
}

int main(int argc, char **argv)
{
    struct cmdline cl;
    int rc = cli_parse(argc, argv, &cl);
    if (rc) {
        cli_free(&cl);
        return rc;
    }
    struct strvec dirs = {0};
    profile_search_path(&dirs);
    switch (cl.command) {
    case CMD_HELP:
        cli_usage(stdout);
        break;
    case CMD_VERSION:
        printf("rdmarun %s\n", PACKAGE_VERSION);
        break;
    case CMD_PROFILES:
        rc = cmd_profiles(&cl, &dirs);
        break;
    case CMD_PROFILES_SHOW:
        rc = cmd_profiles_show(&cl, &dirs);
        break;
    case CMD_CHECK:
        rc = cmd_check(&cl);
        break;
    case CMD_VERIFY:
        rc = cmd_verify(&cl);
        break;
    case CMD_PROBE:
        rc = cmd_probe(&cl);
        break;
    case CMD_RUN:
        rc = cmd_run(&cl, &dirs);
        break;
    }
    sv_free(&dirs);
    cli_free(&cl);
    return rc;
}
