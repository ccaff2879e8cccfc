/*
 * vfs_dir.c - directory handles and listings (readdir, readdirplus).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vfs_i.h"

/* ---- directories ---- */

int vfs_opendir(vfs *v, uint64_t ino, vfs_dir **out)
{
	struct vnode *vn;
	vfs_dir *d;
	int rc = vn_get(v, ino, 0, &vn);

	if (rc)
		return rc;
	pthread_mutex_lock(&vn->m);
	if (!S_ISDIR(vn->rec.mode))
		rc = -ENOTDIR;
	pthread_mutex_unlock(&vn->m);
	if (rc) {
		vn_put(v, vn);
		return rc;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		vn_put(v, vn);
		return -ENOMEM;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->vn = vn;
	vn_ref(v, vn, 0, 1);
	vn_put(v, vn);
	handle_add(v, &d->h, 1);
	*out = d;
	return 0;
}

static void dir_clear(vfs_dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->ents[i].name);
	free(d->ents);
	d->ents = NULL;
	d->n = 0;
	d->loaded = 0;
}

struct snap_ctx {
	vfs_dir *d;
	size_t cap;
};

static int snap_cb(const char *name, size_t nlen, const struct mds_dentry *de,
		   void *arg)
{
	struct snap_ctx *s = arg;
	vfs_dir *d = s->d;
	char *n;

	if (d->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		struct vfs_dent *e = realloc(d->ents, nc * sizeof(*e));

		if (!e)
			return -ENOMEM;
		d->ents = e;
		s->cap = nc;
	}
	n = malloc(nlen + 1);
	if (!n)
		return -ENOMEM;
	memcpy(n, name, nlen);
	n[nlen] = '\0';
	d->ents[d->n].name = n;
	d->ents[d->n].ino = de->ino;
	d->ents[d->n].type = de->type;
	d->n++;
	return 0;
}

/* Directory offsets index a snapshot taken at offset 0 (opendir or
 * rewinddir): stable for the whole pass, as POSIX requires. */
int vfs_readdir(vfs *v, vfs_dir *d, uint64_t off, int plus, vfs_fill_fn fill,
		void *arg)
{
	int taken = 0, rc = 0;

	pthread_mutex_lock(&d->lock);
	if (off == 0 || !d->loaded) {
		struct snap_ctx s = { d, 0 };

		dir_clear(d);
		ns_rd(v);
		rc = mds_readdir(v->m, d->vn->ino, NULL, snap_cb, &s);
		ns_un(v);
		if (rc) {
			dir_clear(d);
			goto out;
		}
		d->loaded = 1;
	}
	for (uint64_t i = off; i < d->n + 2; i++) {
		struct vfs_entry e;
		const char *name;
		struct vnode *vn = NULL;

		memset(&e, 0, sizeof(e));
		if (i < 2) {
			name = i == 0 ? "." : "..";
			e.attr.st_ino = i == 0 ? d->vn->ino : dir_parent(d->vn);
			e.attr.st_mode = S_IFDIR;
			/* no lookup reference for . and .. (e.ino == 0) */
		} else {
			struct vfs_dent *de = &d->ents[i - 2];

			name = de->name;
			if (plus) {
				rc = vn_get(v, de->ino, 1, &vn);
				if (rc == -ENOENT) {
					rc = 0; /* removed since the snapshot */
					continue;
				}
				if (rc)
					break;
				fill_entry(vn, &e);
			} else {
				e.attr.st_ino = de->ino;
				e.attr.st_mode = (mode_t)de->type << 12;
			}
		}
		if (fill(arg, name, &e, i + 1)) {
			if (vn)
				vn_forget(v, vn->ino, 1);
			vn_put(v, vn);
			break;
		}
		vn_put(v, vn);
		taken++;
	}
out:
	pthread_mutex_unlock(&d->lock);
	if (rc && taken == 0)
		return rc;
	return taken;
}

int vfs_fsyncdir(vfs *v, vfs_dir *d)
{
	(void)d;
	return kv_sync(v->db);
}

int vfs_releasedir(vfs *v, vfs_dir *d)
{
	handle_del(v, &d->h);
	dir_clear(d);
	pthread_mutex_destroy(&d->lock);
	vn_close(v, d->vn);
	free(d);
	return 0;
}
