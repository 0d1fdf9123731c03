/* tests/sweep/test_params.c -- unit tests of io/params.c: the ${...} expression evaluator, value
 * formatting, the sweep section reader (jobs, errors) and the resolution of job decks (the sweep
 * keys themselves are the deck's key table's, io/deck_schema.c). Prints PASS|FAIL per check and
 * exits non-zero when one fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/deck.h"
#include "io/params.h"

static int failures = 0, checks = 0;

static void check(int ok, const char *name, const char *detail)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (%s)\n", name, detail ? detail : "");
    }
}

/* ---- expressions ---- */

static const char *const names[] = {"thickness", "n", "mat", "w"};
static yee_pvalue vals[4];

static void setup_vars(void)
{
    memset(vals, 0, sizeof vals);
    vals[0].type = YEE_PV_FLOAT;
    vals[0].f = 0.25;
    vals[1].type = YEE_PV_INT;
    vals[1].i = 20;
    vals[1].f = 20;
    vals[2].type = YEE_PV_STRING;
    snprintf(vals[2].s, sizeof vals[2].s, "glass");
    vals[3].type = YEE_PV_INT;
    vals[3].i = -3;
    vals[3].f = -3;
}

/* expr must evaluate to a value that formats (as a deck literal) to `want`. */
static void expect_value(const char *expr, const char *want)
{
    yee_pvalue v;
    char msg[256], got[96], name[160];
    snprintf(name, sizeof name, "eval ${%s} = %s", expr, want);
    if (yee_expr_eval(expr, 4, names, vals, &v, msg, sizeof msg) < 0) {
        check(0, name, msg);
        return;
    }
    yee_pvalue_format(&v, 0, got, sizeof got);
    check(strcmp(got, want) == 0, name, got);
}

/* expr must fail with a message containing `want`. */
static void expect_error(const char *expr, const char *want)
{
    yee_pvalue v;
    char msg[256], name[160];
    snprintf(name, sizeof name, "eval ${%s} fails with '%s'", expr, want);
    int rc = yee_expr_eval(expr, 4, names, vals, &v, msg, sizeof msg);
    check(rc < 0 && strstr(msg, want) != NULL, name, rc < 0 ? msg : "it succeeded");
}

static void test_expressions(void)
{
    setup_vars();
    expect_value("thickness", "0.25");
    expect_value("n", "20");                 /* an int stays an int: steps = ${n} is valid */
    expect_value("mat", "\"glass\"");        /* a string is quoted outside strings */
    expect_value("2*thickness + 0.1", "0.6");
    expect_value("2 + 3 * 4", "14");         /* precedence */
    expect_value("(2 + 3) * 4", "20");
    expect_value("n / 2", "10.0");           /* / always gives a float */
    expect_value("n * 2 - 1", "39");
    expect_value("2^3^2", "512");            /* right-associative */
    expect_value("-2^2", "-4");              /* ^ before unary minus */
    expect_value("2^-1", "0.5");
    expect_value("(-1)^5", "-1");
    expect_value("w * n", "-60");
    expect_value("- - 3", "3");
    expect_value("1e3", "1000.0");           /* a float literal stays a float */
    expect_value("1.5e-7 * 2", "3e-07");
    expect_value("0.1 + 0.2", "0.30000000000000004"); /* exact: nothing is lost */
    expect_value("thickness * 1", "0.25");
    expect_value(" n ", "20");
    expect_error("thikness * 2", "unknown parameter 'thikness' (did you mean 'thickness'?)");
    expect_error("zzz", "unknown parameter 'zzz'");
    expect_error("1 / (n - 20)", "division by zero");
    expect_error("mat + 1", "string value \"glass\" used in arithmetic");
    expect_error("2 *", "expression ends too early");
    expect_error("(1 + 2", "missing ')'");
    expect_error("1 + 2)", "unbalanced ')'");
    expect_error("3 $ 4", "unexpected '$'");
    expect_error("", "empty expression");
    expect_error("10^30", "integer overflow");
    expect_error("9223372036854775807 + 1", "integer overflow");
    expect_error("10.0^400", "not a finite number");

    /* inside a string: bare, and a float without the forced ".0" */
    yee_pvalue v;
    char buf[64];
    memset(&v, 0, sizeof v);
    v.type = YEE_PV_FLOAT;
    v.f = 2.0;
    yee_pvalue_format(&v, 1, buf, sizeof buf);
    check(strcmp(buf, "2") == 0, "format float 2 in a string", buf);
    yee_pvalue_format(&v, 0, buf, sizeof buf);
    check(strcmp(buf, "2.0") == 0, "format float 2 as a literal", buf);
    v.f = 0.1;
    yee_pvalue_format(&v, 0, buf, sizeof buf);
    check(strcmp(buf, "0.1") == 0, "format 0.1 shortest", buf);
    yee_pvalue_format(&vals[2], 1, buf, sizeof buf);
    check(strcmp(buf, "glass") == 0, "format string in a string", buf);
}

/* ---- the sweep section ---- */

static const char *deck_text =
    "# a sweep deck\n"                                                          /* 1 */
    "sweep = {\n"                                                               /* 2 */
    "  mode = \"product\";\n"                                                   /* 3 */
    "  parameters = ( { name = \"t\"; values = [0.1, 0.2]; },\n"                /* 4 */
    "                 { name = \"res\"; range = [10, 30, 10]; },\n"             /* 5 */
    "                 { name = \"m\"; values = [\"glass\", \"si\"]; } );\n"     /* 6 */
    "  results = ( { name = \"T\"; flux = \"trans\"; wavelength = 1.55; } );\n" /* 7 */
    "};\n"                                                                      /* 8 */
    "simulation = { name = \"run_${m}_${t}\"; steps = ${res * 10}; };  # ${not_parsed}\n" /* 9 */
    "grid = { size = [${2*t + 0.1}, 1.0, 1.0]; resolution = ${res}; };\n"       /* 10 */
    "/* ${also_not_parsed} */ materials = ( { name = ${m}; epsilon = 2.0; } );\n" /* 11 */
    "@include \"mats.cfg\"\n";                                                  /* 12 */

static void test_section(void)
{
    yee_sweep_spec s;
    yee_err err;
    int rc = yee_sweep_spec_parse("d.cfg", deck_text, &s, &err);
    check(rc == YEE_OK, "parse the sweep section", err.msg);
    if (rc != YEE_OK)
        return;
    check(s.nparams == 3 && s.njobs == 2 * 3 * 2, "12 jobs from 2 x 3 x 2", NULL);
    check(s.params[0].type == YEE_PV_FLOAT && s.params[1].type == YEE_PV_INT &&
              s.params[2].type == YEE_PV_STRING,
          "parameter types float, int (integer range), string", NULL);
    check(s.params[1].nvalues == 3 && s.params[1].values[2].i == 30, "range 10:30:10 inclusive",
          NULL);
    check(s.nresults == 1 && s.results[0].kind == YEE_RESULT_FLUX &&
              fabs(s.results[0].freq - 1 / 1.55) < 1e-15,
          "flux result at 1.55 um", NULL);
    int idx[3];
    yee_sweep_job_indices(&s, 0, idx);
    check(idx[0] == 0 && idx[1] == 0 && idx[2] == 0, "job 0 = first values", NULL);
    yee_sweep_job_indices(&s, 1, idx);
    check(idx[0] == 0 && idx[1] == 0 && idx[2] == 1, "product: last parameter fastest", NULL);
    yee_sweep_job_indices(&s, 11, idx);
    check(idx[0] == 1 && idx[1] == 2 && idx[2] == 1, "job 11 = last values", NULL);

    char *out = NULL;
    int unused[3] = {1, 1, 1};
    rc = yee_sweep_resolve(&s, "d.cfg", deck_text, 7, "../../decks/", &out, unused, &err);
    check(rc == YEE_OK, "resolve job 8", err.msg);
    if (rc == YEE_OK) {
        /* job 7 (0-based): t = 0.2, res = 10, m = si */
        int lines_in = 0, lines_out = 0;
        for (const char *p = deck_text; *p; p++)
            lines_in += *p == '\n';
        for (const char *p = out; *p; p++)
            lines_out += *p == '\n';
        check(lines_in == lines_out, "same number of lines", NULL);
        const char *head = "/* yee sweep job 8 of 12: t = 0.2, res = 10, m = si */ # a sweep";
        check(strncmp(out, head, strlen(head)) == 0, "header comment on line 1", out);
        check(strstr(out, "sweep") == strstr(out, "sweep job") && !strstr(out, "parameters"),
              "sweep section removed", out);
        check(strstr(out, "simulation = { name = \"run_si_0.2\"; steps = 100; };  # "
                          "${not_parsed}\n") != NULL,
              "code and string placeholders resolved, comments untouched", out);
        check(strstr(out, "size = [0.5, 1.0, 1.0]; resolution = 10; }") != NULL,
              "expression in an array; int parameter stays int", out);
        check(strstr(out, "/* ${also_not_parsed} */ materials = ( { name = \"si\";") != NULL,
              "string parameter quoted in code", out);
        check(strstr(out, "@include \"../../decks/mats.cfg\"") != NULL,
              "relative @include rewritten", out);
        check(!unused[0] && !unused[1] && !unused[2], "every parameter used", NULL);
        free(out);
    }
    yee_sweep_spec_free(&s);

    /* line numbers of placeholder errors are the deck's, with a hint */
    const char *bad = "sweep = { parameters = ( { name = \"thickness\"; values = [1.0]; } ); };\n"
                      "\n"
                      "grid = { size = [${2*thikness}, 1.0, 1.0]; };\n";
    rc = yee_sweep_spec_parse("bad.cfg", bad, &s, &err);
    check(rc == YEE_OK, "parse a one-job sweep", err.msg);
    if (rc == YEE_OK) {
        rc = yee_sweep_resolve(&s, "bad.cfg", bad, 0, NULL, &out, NULL, &err);
        check(rc == YEE_ERR_DECK &&
                  strcmp(err.msg, "bad.cfg:3: error: unknown parameter 'thikness' in "
                                  "${2*thikness} (did you mean 'thickness'?)") == 0,
              "unknown parameter error with line and hint", err.msg);
        yee_sweep_spec_free(&s);
    }
}

/* The sweep section text `section` must fail to parse with a message containing `want`. */
static void expect_section_error(const char *section, const char *want)
{
    yee_sweep_spec s;
    yee_err err;
    char name[200];
    snprintf(name, sizeof name, "section error '%s'", want);
    int rc = yee_sweep_spec_parse("e.cfg", section, &s, &err);
    check(rc == YEE_ERR_DECK && strstr(err.msg, want) != NULL, name,
          rc == YEE_OK ? "it parsed" : err.msg);
    if (rc == YEE_OK)
        yee_sweep_spec_free(&s);
}

static void test_section_errors(void)
{
    expect_section_error("grid = { };\n", "e.cfg: error: no `sweep = { ... };` group");
    expect_section_error("\nsweep = { parameters = ( { name = \"t\"; valeus = [1]; } ); };\n",
                         "e.cfg:2: error: sweep.parameters[0].valeus: unknown key, did you "
                         "mean `values`?");
    expect_section_error("sweep = { mdoe = \"zip\"; parameters = ( { name = \"t\"; values = [1]; "
                         "} ); };", "sweep.mdoe: unknown key, did you mean `mode`?");
    expect_section_error("sweep = { mode = \"zip\"; parameters = ( { name = \"a\"; values = [1, "
                         "2]; }, { name = \"b\"; values = [1]; } ); };",
                         "zip needs lists of one length: 'a' has 2 values, 'b' has 1");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; range = [1.0, 0.0, 0.5]; } ); "
                         "};", "the step must be nonzero and lead from start to stop");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = []; } ); };",
                         "sweep.parameters[0].values: must not be empty");
    expect_section_error("sweep = { parameters = ( { name = \"2t\"; values = [1]; } ); };",
                         "must be a name [A-Za-z_][A-Za-z0-9_]* (got \"2t\")");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; }, { name = "
                         "\"t\"; values = [2]; } ); };", "parameter 't' is already defined");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; } ); results = "
                         "( { name = \"x\"; flux = \"f\"; } ); };",
                         "give exactly one of frequency (THz) / wavelength (um)");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; } ); results = "
                         "( { name = \"x\"; flux = \"f\"; wavelength = 1.0; what = \"Q\"; } ); };",
                         "sweep.results[0].what: only allowed with resonance");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; } ); results = "
                         "( { name = \"x\"; resonance = \"p\"; what = \"q\"; } ); };",
                         "must be one of \"frequency\", \"wavelength\", \"Q\", \"decay\"");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; } ); results = "
                         "( { name = \"t\"; resonance = \"p\"; } ); };",
                         "'t' is a parameter's column already");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [1]; } ); slurm = { "
                         "partition = \"a b\"; }; };", "must be one word");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; values = [${x}]; } ); };",
                         "placeholders ${...} cannot be used inside the sweep section");
    expect_section_error("sweep = { parameters = ( { name = \"t\"; range = [1, 200000, 1]; } ); "
                         "};", "more than 100000");
}

static void test_placeholder_scan(void)
{
    int line = 0;
    check(yee_params_has_placeholder("a = 1;\n# ${x}\nb = \"${y}\";\n", &line) && line == 3,
          "placeholder in a string found on line 3, not in a comment", NULL);
    check(!yee_params_has_placeholder("a = 1; /* ${x} */ // ${y}\n", &line),
          "placeholders in comments ignored", NULL);
}

int main(void)
{
    test_expressions();
    test_section();
    test_section_errors();
    test_placeholder_scan();
    if (failures) {
        printf("FAIL sweep_params (%d of %d checks failed)\n", failures, checks);
        return 1;
    }
    printf("PASS sweep_params (%d checks)\n", checks);
    return 0;
}
