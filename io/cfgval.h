/* io/cfgval.h -- the number tests of a libconfig setting that the deck reader (io/deck.c) and
 * the sweep reader (io/params.c) share. Only io/ includes libconfig.h; so does this header. */
#ifndef YEE_IO_CFGVAL_H
#define YEE_IO_CFGVAL_H

#include <libconfig.h>

/* An int, int64 or float setting. */
static inline int yee_cfg_is_number(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 || t == CONFIG_TYPE_FLOAT;
}

/* An int or int64 setting. */
static inline int yee_cfg_is_int(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

/* The value of a number setting as a double. */
static inline double yee_cfg_number(const config_setting_t *s)
{
    return yee_cfg_is_int(s) ? (double)config_setting_get_int64(s) : config_setting_get_float(s);
}

#endif
