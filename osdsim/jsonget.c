/*
 * jsonget.c - the checked field reads every JSON reader of osdsim/ uses
 * (cluster.json, pools, imported snapshots): a missing field, a field of
 * the wrong type and a value out of range are all "bad field", which the
 * caller reports with the file and the field's name.
 */
#include <math.h>

#include "osdsim_i.h"

int jget_int(json_t *o, const char *k, int64_t lo, int64_t hi, int64_t *v)
{
	json_t *x = json_object_get(o, k);

	if (!json_is_integer(x))
		return -1;
	*v = (int64_t)json_integer_value(x);
	return *v < lo || *v > hi ? -1 : 0;
}

int jget_real(json_t *o, const char *k, double lo, double hi, double *v)
{
	json_t *x = json_object_get(o, k);

	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return isfinite(*v) && *v >= lo && *v <= hi ? 0 : -1;
}
