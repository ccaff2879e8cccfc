/*
 * rados_dl.c - librados, loaded on first use (ceph_i.h says why).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ceph_i.h"

/* the soname Debian 12's librados2 ships (Ceph 16.2) */
#define LIBRADOS "librados.so.2"

struct ceph_rados_api ceph_rados;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

int ceph_rados_load(char *err, size_t errlen)
{
	/* CRUSHFS_LIBRADOS: another file (the tests name a missing one) */
	const char *lib = getenv("CRUSHFS_LIBRADOS");
	void *h;
	int r = 0;

	if (!lib || !*lib)
		lib = LIBRADOS;

	pthread_mutex_lock(&load_lock);
	if (loaded)
		goto out;
	/* kept for the process's life: its threads and atexit handlers
	 * outlive any one connection */
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen,
			 "cannot load librados (%s): apt-get install -y librados2",
			 dlerror());
		r = -ENOENT;
		goto out;
	}
#define CEPH_RADOS_SYM(f)                                                    \
	if (!r && !(ceph_rados.f = (__typeof__(ceph_rados.f))dlsym(          \
			    h, "rados_" #f))) {                              \
		snprintf(err, errlen, "%s has no rados_%s: not the librados " \
			 "of Ceph 16.2 or later", lib, #f);                   \
		r = -ENOENT;                                                 \
	}
	CEPH_RADOS_CALLS(CEPH_RADOS_SYM)
#undef CEPH_RADOS_SYM
	if (r)
		dlclose(h);
	else
		loaded = 1;
out:
	pthread_mutex_unlock(&load_lock);
	return r;
}
