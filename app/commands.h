/* app/commands.h -- what each `yee` command is for and which options it takes: the one source of
 * the help texts. `yee --help` prints every command's synopsis and summary from this table, and
 * `yee COMMAND --help` (or -h, or `yee help COMMAND`) prints the same synopsis and summary
 * followed by that command's options and notes; the exit statuses printed by both come from the
 * one table here too. The parsers themselves live with their commands (app/main.c, app/sweep.c,
 * postproc/): this module only describes them, and tests/cli.cmake checks that each option the
 * help names is one its command accepts.
 */
#ifndef YEE_APP_COMMANDS_H
#define YEE_APP_COMMANDS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yee_option_doc {
    const char *flag;  /* "--out" */
    const char *alias; /* "-q", or NULL */
    const char *arg;   /* "DIR" when the option takes a value (the next argument), else NULL */
    const char *text;  /* what it does; '\n' starts another line */
} yee_option_doc;

typedef struct yee_command_doc {
    const char *name;              /* "run" */
    const char *synopsis;          /* the arguments after "yee run"; '\n' continues them */
    const char *summary;           /* what it does, for `yee --help` and the command's help */
    const yee_option_doc *options; /* ends with an entry whose flag is NULL */
    const char *notes;             /* more, for the command's own help only; NULL: none */
    int may_stop;                  /* it can exit YEE_EXIT_STOPPED */
} yee_command_doc;

/* Exit statuses of every command (docs/errors.md, README.md "Exit status"). */
enum {
    YEE_EXIT_OK = 0,
    YEE_EXIT_ERROR = 1,   /* a bad deck, a failed run or job, an unreadable or unwritable file */
    YEE_EXIT_USAGE = 2,   /* a bad command line */
    YEE_EXIT_STOPPED = 3, /* stopped by SIGTERM; running it again goes on (docs/checkpoint.md) */
};

/* The command named `name`, or NULL. */
const yee_command_doc *yee_command_find(const char *name);

/* `yee --help`: every command, the global options and the exit statuses. */
void yee_print_usage(FILE *out);

/* `yee NAME --help`: synopsis, summary, options, notes and the statuses it can exit with. */
void yee_print_command_help(const yee_command_doc *c, FILE *out);

/* Whether the arguments argv[first..argc) ask for help: one of them is -h or --help, not taken
 * as the value of the option before it (per c's options: `--out --help` names a folder). */
int yee_command_wants_help(const yee_command_doc *c, int argc, char **argv, int first);

#ifdef __cplusplus
}
#endif

#endif
