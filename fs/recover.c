/*
 * recover.c - inodes from their objects (recover.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recover.h"
#include "util.h"

static int obj_cmp(const void *a, const void *b)
{
	const struct rc_obj *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->objno != y->objno)
		return x->objno < y->objno ? -1 : 1;
	return x->pool < y->pool ? -1 : x->pool > y->pool;
}

int rc_group(struct rc_obj *objs, size_t n, struct rc_inode **out,
	     size_t *nout)
{
	struct rc_inode *v;
	size_t k = 0;

	*out = NULL;
	*nout = 0;
	if (n == 0)
		return 0;
	qsort(objs, n, sizeof(*objs), obj_cmp);
	v = calloc(n, sizeof(*v)); /* at most one inode per object */
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (k && v[k - 1].ino == objs[i].ino) {
			v[k - 1].nobjs++;
			continue;
		}
		v[k].ino = objs[i].ino;
		v[k].objs = &objs[i];
		v[k].nobjs = 1;
		k++;
	}
	*out = v;
	*nout = k;
	return 0;
}

int rc_load(objlayer *ol, struct rc_inode *ri)
{
	char name[64];
	void *val;
	size_t len;
	int rc;

	/* the backtrace is on object 0 in the default data pool */
	const struct rc_obj *o0 = NULL;

	for (size_t i = 0; i < ri->nobjs && ri->objs[i].objno == 0; i++)
		if (ri->objs[i].pool == ol_data_pool(ol))
			o0 = &ri->objs[i];
	if (!o0)
		return 0; /* no object 0 there: no backtrace */
	ol_object_name(ri->ino, 0, name, sizeof(name));
	rc = ol_obj_getattr(ol, ol_data_pool(ol), name, BT_XATTR, &val, &len);
	if (rc == -ENOENT || rc == -ENODATA)
		return 0;
	if (rc)
		return rc;
	rc = bt_decode(val, len, &ri->bt);
	free(val);
	if (rc == 0 && ri->bt.ino != ri->ino) {
		bt_free(&ri->bt);
		rc = CFS_ECORRUPT; /* another inode's: copied by hand? */
	}
	if (rc) {
		cfs_log(CFS_LOG_WARN, "object %s: unusable backtrace (%s): "
			"treated as missing", name, cfs_strerror(rc));
		return 0;
	}
	ri->has_bt = 1;
	if (S_ISLNK(ri->bt.mode) && o0->size > 0 &&
	    o0->size <= MDS_SYMLINK_MAX) {
		size_t n = (size_t)o0->size;
		char *t = malloc(n + 1);
		ssize_t got;

		if (!t)
			return -ENOMEM;
		got = ol_obj_read(ol, ol_data_pool(ol), name, 0, t, n);
		if (got == (ssize_t)n && !memchr(t, '\0', n)) {
			t[n] = '\0';
			ri->target = t;
			ri->tlen = n;
		} else {
			free(t);
		}
	}
	return 0;
}

void rc_inode_free(struct rc_inode *ri)
{
	if (ri->has_bt)
		bt_free(&ri->bt);
	free(ri->target);
	ri->target = NULL;
	ri->has_bt = 0;
}

uint64_t rc_file_end(const struct ol_layout *l, uint64_t objno,
		     uint64_t size)
{
	uint64_t su, sc, spo, last, setno, pos, block, stripe;

	if (size == 0 || !ol_layout_valid(l))
		return 0;
	/* objlayer's striper: one stripe unit per object when count is 1 */
	sc = l->stripe_count;
	su = sc == 1 ? l->object_size : l->stripe_unit;
	spo = l->object_size / su;
	last = size - 1; /* the last byte, inside the object */
	setno = objno / sc;
	pos = objno % sc;
	block = last / su;			/* its block in the object */
	stripe = setno * spo + block;		/* its stripe in the file */
	return (stripe * sc + pos) * su + last % su + 1;
}

void rc_make_inode(const struct rc_inode *ri, const struct ol_layout *deflt,
		   uint32_t uid, uint32_t gid, struct mds_inode *out)
{
	struct timespec newest = { 0, 0 };

	memset(out, 0, sizeof(*out));
	out->ino = ri->ino;
	for (size_t i = 0; i < ri->nobjs; i++)
		if (ri->objs[i].mtime.tv_sec > newest.tv_sec ||
		    (ri->objs[i].mtime.tv_sec == newest.tv_sec &&
		     ri->objs[i].mtime.tv_nsec > newest.tv_nsec))
			newest = ri->objs[i].mtime;
	if (ri->has_bt && !(S_ISLNK(ri->bt.mode) && !ri->target)) {
		out->mode = ri->bt.mode;
		out->uid = ri->bt.uid;
		out->gid = ri->bt.gid;
		out->rdev = ri->bt.rdev;
		out->mtime = ri->bt.mtime;
	} else {
		/* no backtrace (or a symlink without its target): the bytes
		 * are kept as a file */
		out->mode = S_IFREG | 0644;
		out->uid = uid;
		out->gid = gid;
		out->mtime = newest;
	}
	if (S_ISREG(out->mode)) {
		out->layout = ri->has_bt && ol_layout_valid(&ri->bt.layout) ?
				      ri->bt.layout : *deflt;
		if (!(ri->has_bt && ol_layout_valid(&ri->bt.layout)))
			/* no layout said: the pool the data is in (object
			 * 0 in the default pool may be only a backtrace) */
			for (size_t i = 0; i < ri->nobjs; i++)
				if (ri->objs[i].pool != deflt->pool)
					out->layout.pool = ri->objs[i].pool;
		for (size_t i = 0; i < ri->nobjs; i++) {
			uint64_t end;

			if (ri->objs[i].pool != out->layout.pool)
				continue;
			end = rc_file_end(&out->layout, ri->objs[i].objno,
					  ri->objs[i].size);

			if (end > out->size)
				out->size = end;
		}
	} else if (S_ISLNK(out->mode)) {
		out->size = ri->tlen;
	}
	if (out->mtime.tv_sec == 0 && out->mtime.tv_nsec == 0)
		clock_gettime(CLOCK_REALTIME, &out->mtime);
	out->atime = out->ctime = out->btime = out->mtime;
	out->generation = 1;
}
