/*
 * live.c - monitor and manager commands through librados (the C API the
 * ceph CLI's python binding wraps), and the snapshot import-ceph --live
 * takes with them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include "ceph_i.h"
#include "util.h"

struct ceph_conn {
	rados_t cluster;
};

int ceph_connect(const char *conf, const char *id, int timeout,
		 ceph_conn **out, char *err, size_t errlen)
{
	ceph_conn *c = calloc(1, sizeof(*c));
	char t[16];
	int r;

	if (!c)
		return -ENOMEM;
	if ((r = ceph_rados_load(err, errlen))) {
		free(c);
		return r;
	}
	r = ceph_rados.create(&c->cluster, id);
	if (r) {
		snprintf(err, errlen, "cannot make a librados client: %s",
			 strerror(-r));
		free(c);
		return r;
	}
	r = ceph_rados.conf_read_file(c->cluster, conf);
	if (r) {
		snprintf(err, errlen, "%s: cannot read the Ceph config: %s",
			 conf ? conf : "$CEPH_CONF or /etc/ceph/ceph.conf",
			 strerror(-r));
		goto fail;
	}
	ceph_rados.conf_parse_env(c->cluster, NULL);
	/* no admin socket of ours: a second client (a command beside the
	 * daemon) would clash on the config's path */
	ceph_rados.conf_set(c->cluster, "admin_socket", "");
	/* never wait for ever on a cluster that does not answer */
	snprintf(t, sizeof(t), "%d", timeout);
	ceph_rados.conf_set(c->cluster, "client_mount_timeout", t);
	ceph_rados.conf_set(c->cluster, "rados_mon_op_timeout", t);
	ceph_rados.conf_set(c->cluster, "rados_osd_op_timeout", t);
	r = ceph_rados.connect(c->cluster);
	if (r) {
		snprintf(err, errlen, "%s: cannot connect to the cluster as "
			 "client.%s: %s",
			 conf ? conf : "default config", id ? id : "admin",
			 strerror(-r));
		goto fail;
	}
	*out = c;
	return 0;
fail:
	ceph_rados.shutdown(c->cluster);
	free(c);
	return r;
}

rados_t ceph_conn_rados(ceph_conn *c)
{
	return c->cluster;
}

void ceph_disconnect(ceph_conn *c)
{
	if (!c)
		return;
	ceph_rados.shutdown(c->cluster);
	free(c);
}

int ceph_command(ceph_conn *c, int mgr, const char *cmd, char **out,
		 size_t *outlen, char *err, size_t errlen)
{
	const char *cmds[1] = { cmd };
	char *buf = NULL, *st = NULL;
	size_t blen = 0, slen = 0;
	int r;

	r = mgr ? ceph_rados.mgr_command(c->cluster, cmds, 1, "", 0, &buf,
					 &blen, &st, &slen)
		: ceph_rados.mon_command(c->cluster, cmds, 1, "", 0, &buf,
					 &blen, &st, &slen);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s%s%.*s", cmd, strerror(-r),
			 slen ? ": " : "", (int)(slen > 300 ? 300 : slen),
			 st ? st : "");
		goto out;
	}
	*out = malloc(blen + 1);
	if (!*out) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(*out, buf, blen);
	(*out)[blen] = 0;
	*outlen = blen;
	r = 0;
out:
	if (buf)
		ceph_rados.buffer_free(buf);
	if (st)
		ceph_rados.buffer_free(st);
	return r;
}

static int save(const char *dir, const char *name, const char *data,
		size_t len, char *err, size_t errlen)
{
	char p[4096];
	int r = cfs_pathf(p, sizeof(p), "%s/%s", dir, name);

	if (!r)
		r = cfs_write_atomic_mode(p, data, len, 0644);
	if (r)
		snprintf(err, errlen, "%s/%s: cannot write: %s", dir, name,
			 cfs_strerror(r));
	return r;
}

static long epoch_of(const char *dump)
{
	json_t *j = json_loads(dump, 0, NULL);
	long e = json_integer_value(json_object_get(j, "epoch"));

	json_decref(j);
	return e;
}

int ceph_snapshot(ceph_conn *c, const char *dir, char *err, size_t errlen)
{
	static const struct {
		const char *file, *cmd;
		int mgr;
	} cmds[] = {
		{ "crushmap.bin", "{\"prefix\": \"osd getcrushmap\"}", 0 },
		{ "osd_df.json", "{\"prefix\": \"osd df\", \"format\": "
				 "\"json\"}", 1 },
		{ "df.json", "{\"prefix\": \"df\", \"format\": \"json\"}", 0 },
		{ "osd_dump.json", "{\"prefix\": \"osd dump\", \"format\": "
				   "\"json\"}", 0 },
	};
	const size_t n = sizeof(cmds) / sizeof(cmds[0]);
	/* the user's folder (--save DIR) or a private mkdtemp one: the
	 * user's files, made as any tool makes them (umask applies) */
	int r = cfs_mkdirs(dir, 0755);

	if (r) {
		snprintf(err, errlen, "%s: cannot create: %s", dir,
			 cfs_strerror(r));
		return r;
	}
	/* the crush map and the dump must be of one epoch: take them again
	 * when the osdmap moved while they were read */
	for (int tries = 0; tries < 5; tries++) {
		char *out[4] = { NULL };
		size_t len[4] = { 0 };
		long before = -1;

		r = 0;
		{
			char *d = NULL;
			size_t dl;

			r = ceph_command(c, 0, cmds[n - 1].cmd, &d, &dl, err,
					 errlen);
			if (r)
				return r;
			before = epoch_of(d);
			free(d);
		}
		for (size_t i = 0; i < n && !r; i++)
			r = ceph_command(c, cmds[i].mgr, cmds[i].cmd, &out[i],
					 &len[i], err, errlen);
		if (!r && epoch_of(out[n - 1]) == before)
			for (size_t i = 0; i < n && !r; i++)
				r = save(dir, cmds[i].file, out[i], len[i], err,
					 errlen);
		else if (!r)
			r = -EAGAIN;
		for (size_t i = 0; i < n; i++)
			free(out[i]);
		if (r != -EAGAIN)
			return r;
	}
	snprintf(err, errlen, "the cluster's osdmap kept changing while it "
		 "was read (5 tries); try again");
	return -EAGAIN;
}
