/* io/params.h -- a deck's `sweep` section and the ${...} placeholders that use it (docs/sweeps.md).
 *
 * A sweep deck is an ordinary deck plus a group `sweep = { ... };` that names parameters (value
 * lists or ranges, combined as a Cartesian product or zipped), the scalar results to extract from
 * each job, and batch resources. Anywhere else in the deck text (code and strings, not comments),
 * `${expr}` stands for a value of one job: expr is a number, a parameter name, + - * / ^ and
 * parentheses. Substitution works on the TEXT, before libconfig parses it, so a placeholder may
 * stand where libconfig wants a literal (`size = [${w}, 1.0, 1.0];`).
 *
 * This module reads the sweep section (with the deck reader and the deck's key table, as
 * io/deck.c reads the rest: unknown keys, wrong types and missing keys are errors with
 * file:line), enumerates the jobs and writes each job's resolved deck text. It runs nothing and
 * reads no simulation output (app/sweep.c does).
 */
#ifndef YEE_IO_PARAMS_H
#define YEE_IO_PARAMS_H

#include <stddef.h>

#include "common/yee_err.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A value of a parameter or of an expression. The type decides how it is written into the deck:
 * INT as an integer (libconfig types it int: `steps = ${n};` stays valid), FLOAT always with a
 * '.' or an exponent (libconfig types it float), STRING quoted in code and bare inside a string. */
typedef enum yee_pvalue_type { YEE_PV_INT = 0, YEE_PV_FLOAT, YEE_PV_STRING } yee_pvalue_type;

typedef struct yee_pvalue {
    yee_pvalue_type type;
    long long i;          /* INT */
    double f;             /* FLOAT; an INT has f == i too */
    char s[YEE_NAME_LEN]; /* STRING: printable ASCII without " \ and the pair star-slash */
} yee_pvalue;

/* One swept parameter. Its type is INT when every value is written as an integer in the deck,
 * FLOAT when any is a float, STRING for strings (numbers and strings cannot mix). */
typedef struct yee_param {
    char name[YEE_NAME_LEN]; /* [A-Za-z_][A-Za-z0-9_]* */
    int line;
    yee_pvalue_type type;
    int nvalues;
    yee_pvalue *values;      /* owned */
} yee_param;

typedef enum yee_result_kind {
    YEE_RESULT_FLUX = 0,     /* a flux monitor's spectrum at one frequency (interpolated) */
    YEE_RESULT_RESONANCE     /* the strongest harminv mode of a probe's time series */
} yee_result_kind;

typedef enum yee_resonance_what {
    YEE_RES_FREQUENCY = 0, /* THz */
    YEE_RES_WAVELENGTH,    /* um, in vacuum */
    YEE_RES_Q,             /* quality factor */
    YEE_RES_DECAY          /* amplitude decay rate, 1/fs */
} yee_resonance_what;

/* One scalar result column of summary.csv. */
typedef struct yee_result_spec {
    char name[YEE_NAME_LEN];    /* column name */
    int line;
    yee_result_kind kind;
    char monitor[YEE_NAME_LEN]; /* flux monitor (FLUX) or probe (RESONANCE) */
    double freq;                /* FLUX: where to interpolate, c/um */
    int by_wavelength;          /* FLUX: the deck gave a wavelength (for messages) */
    yee_resonance_what what;    /* RESONANCE */
    char component[8];          /* RESONANCE: "" = the probe's first component */
    double fmin, fmax;          /* RESONANCE: search window, c/um (0 = open) */
    double start;               /* RESONANCE: series analysed from this time on, c-units */
} yee_result_spec;

/* Slurm resources (sweep.slurm, overridable by `yee sweep --slurm` flags). Empty string / 0 =
 * not written into the script (the cluster's default applies). */
typedef struct yee_slurm_spec {
    char time[32];        /* --time, e.g. "01:00:00" */
    char partition[64];
    char account[64];
    char memory[32];      /* --mem, e.g. "16G" */
    int gpus;             /* --gres=gpu:N per job */
    int cpus;             /* --cpus-per-task */
    char mpi[32];         /* srun --mpi plugin ("" = detected from `srun --mpi=list`) */
    int checkpoint_margin; /* --signal=B:TERM@S: seconds before the limit (-1 = not given) */
    char setup[512];      /* shell lines run before each job (module load ...) */
} yee_slurm_spec;

typedef struct yee_sweep_spec {
    int zip;                 /* 0: Cartesian product (first parameter outermost); 1: zipped */
    int nparams;
    yee_param *params;       /* owned */
    int nresults;
    yee_result_spec *results; /* owned */
    yee_slurm_spec slurm;
    long njobs;
    size_t sec_begin, sec_end; /* the section's bytes in the deck text (blanked in job decks) */
} yee_sweep_spec;

/* At most this many jobs; a larger sweep is almost always a mistake in a range. */
#define YEE_SWEEP_MAX_JOBS 100000L

/* Read the sweep section of the deck `text` (deck_path names it in messages). Errors
 * (YEE_ERR_DECK, one per line, "deck.cfg:LINE: error: sweep.KEY: what (got X)"): no sweep section,
 * a placeholder inside it, libconfig syntax, unknown keys (with a hint), wrong types, empty value
 * lists, a range that does not step towards its end, zip lists of different lengths, more than
 * YEE_SWEEP_MAX_JOBS jobs. YEE_ERR_NOMEM. On success free with yee_sweep_spec_free. */
int yee_sweep_spec_parse(const char *deck_path, const char *text, yee_sweep_spec *out,
                         yee_err *err);

void yee_sweep_spec_free(yee_sweep_spec *s);

/* The value index of every parameter for job `job` (0-based, < njobs) into idx[nparams]. */
void yee_sweep_job_indices(const yee_sweep_spec *s, long job, int *idx);

/* The deck text of job `job`: every ${expr} replaced by its value, the sweep section blanked
 * (only its newlines stay, so line numbers are those of the sweep deck), a comment naming the job and its values
 * put before line 1, and relative `@include "x"` paths prefixed with include_prefix (the path from
 * the job deck's directory to the sweep deck's, ending in '/'; NULL or "" = unchanged). *out is
 * malloc'd (caller frees). `unused` (may be NULL) gets, per parameter, 1 when no placeholder used
 * it. Errors: YEE_ERR_DECK "deck.cfg:LINE: error: unknown parameter 'x' in ${...} (did you mean
 * 'y'?)" and other expression errors, every one found; YEE_ERR_NOMEM. */
int yee_sweep_resolve(const yee_sweep_spec *s, const char *deck_path, const char *text, long job,
                      const char *include_prefix, char **out, int *unused, yee_err *err);

/* Evaluate one expression (the text between ${ and }) with the given variables. Grammar:
 *   expr = term {(+|-) term};  term = unary {(*|/) unary};  unary = (+|-) unary | power;
 *   power = primary [^ unary];  primary = number | name | ( expr )
 * so ^ binds tighter than unary minus and is right-associative (-2^2 = -4, 2^3^2 = 512).
 * Types: INT op INT stays INT for + - * and ^ with an exponent >= 0; / always gives FLOAT; any
 * FLOAT operand gives FLOAT. A STRING may only stand alone (${name}). Returns 0, or -1 with a
 * message in msg: unknown parameter (with a hint), division by zero, integer overflow, a result
 * that is not finite, syntax. */
int yee_expr_eval(const char *expr, int nvars, const char *const *names, const yee_pvalue *vals,
                  yee_pvalue *out, char *msg, size_t msglen);

/* Write v as it goes into a deck: in_string 0 = as a libconfig literal (FLOAT always with '.' or
 * an exponent, STRING quoted), 1 = inside a string (bare). Floats use the shortest of %.15g,
 * %.16g, %.17g that reads back as the same double, so 0.1 stays 0.1 and nothing is lost. */
void yee_pvalue_format(const yee_pvalue *v, int in_string, char *buf, size_t n);

/* 1 when the deck text has a ${ outside comments; *line gets its line. */
int yee_params_has_placeholder(const char *text, int *line);

#ifdef __cplusplus
}
#endif

#endif
