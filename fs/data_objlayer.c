/*
 * data_objlayer.c - vfs_data_ops over objlayer.h: the daemon's data store.
 * Kept apart from vfs.c so that unit tests with a fake store do not pull
 * in the object layer.
 */
#include <errno.h>

#include "backtrace.h"
#include "vfs.h"

static ssize_t ol_write_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			   uint64_t off, const void *buf, size_t len)
{
	return ol_write(ctx, ino, l, off, buf, len);
}

static ssize_t ol_read_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			  uint64_t size, uint64_t off, void *buf, size_t len)
{
	return ol_read(ctx, ino, l, size, off, buf, len);
}

static int ol_truncate_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			  uint64_t old_size, uint64_t new_size)
{
	return ol_truncate(ctx, ino, l, old_size, new_size);
}

static int ol_remove_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t size)
{
	return ol_remove(ctx, ino, l, size);
}

static int ol_flush_cb(void *ctx, uint64_t ino)
{
	return ol_flush(ctx, ino);
}

/* only the RADOS backend's write-back has errors to report at close */
static int ol_flush_needed_cb(void *ctx)
{
	return ol_is_rados(ctx);
}

static int ol_removed_cb(void *ctx, uint64_t ino)
{
	return ol_removed(ctx, ino);
}

static int ol_sync_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
		      uint64_t size)
{
	return ol_sync(ctx, ino, l, size);
}

static int ol_space_cb(void *ctx, struct ol_space *s)
{
	return ol_space(ctx, s);
}

static void ol_layout_cb(void *ctx, struct ol_layout *l)
{
	ol_default_layout(ctx, l);
}

static int ol_pool_cb(void *ctx, const char *key, int64_t *id, char *name,
		      size_t len)
{
	return ol_pool_lookup(ctx, key, id, name, len);
}

static int ol_locate_cb(void *ctx, int64_t pool, const char *name,
			struct ol_placement *p)
{
	return ol_locate(ctx, pool, name, p);
}

/* The default data pool: every inode's backtrace is on its object 0
 * there (CephFS), whatever pool the file's data is in. */
static int64_t bt_pool(void *ctx)
{
	struct ol_layout l;

	ol_default_layout(ctx, &l);
	return l.pool;
}

static int ol_set_bt_cb(void *ctx, uint64_t ino, const void *bt, size_t len,
			const void *data, size_t dlen, int sync)
{
	char name[64];
	int rc = 0;

	ol_object_name(ino, 0, name, sizeof(name));
	if (data)
		rc = ol_obj_write_full(ctx, bt_pool(ctx), name, data, dlen);
	if (rc == 0)
		rc = ol_obj_setattr(ctx, bt_pool(ctx), name, BT_XATTR, bt,
				    len);
	if (rc == 0 && sync) {
		struct ol_layout l;

		/* every object of the inode that exists (the index's), object
		 * 0 with its attributes among them */
		ol_default_layout(ctx, &l);
		rc = ol_sync(ctx, ino, &l, 0);
	}
	return rc;
}

static int ol_get_bt_cb(void *ctx, uint64_t ino, void **bt, size_t *len)
{
	char name[64];

	ol_object_name(ino, 0, name, sizeof(name));
	return ol_obj_getattr(ctx, bt_pool(ctx), name, BT_XATTR, bt, len);
}

static int ol_remove_bt_cb(void *ctx, uint64_t ino)
{
	char name[64];
	int rc;

	ol_object_name(ino, 0, name, sizeof(name));
	rc = ol_obj_remove(ctx, bt_pool(ctx), name);
	return rc == -ENOENT ? 0 : rc;
}

static int ol_obj_stat_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			  uint64_t objectno, uint64_t *size,
			  struct timespec *mtime)
{
	char name[64];

	ol_object_name(ino, objectno, name, sizeof(name));
	return ol_obj_stat_mtime(ctx, l->pool, name, size, mtime);
}

static int ol_fallocate_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			   uint64_t off, uint64_t len, enum ol_falloc_mode mode)
{
	return ol_fallocate(ctx, ino, l, off, len, mode);
}

static int ol_allocated_cb(void *ctx, uint64_t ino, const struct ol_layout *l,
			   uint64_t size, uint64_t *bytes)
{
	return ol_file_bytes_upto(ctx, ino, l, size, bytes);
}

static void ol_fsid_cb(void *ctx, char *buf, size_t len)
{
	ol_fsid(ctx, buf, len);
}

const struct vfs_data_ops vfs_objlayer_ops = {
	.fsid = ol_fsid_cb,
	.allocated = ol_allocated_cb,
	.write = ol_write_cb,
	.read = ol_read_cb,
	.truncate = ol_truncate_cb,
	.remove = ol_remove_cb,
	.sync = ol_sync_cb,
	.flush = ol_flush_cb,
	.flush_needed = ol_flush_needed_cb,
	.removed = ol_removed_cb,
	.space = ol_space_cb,
	.default_layout = ol_layout_cb,
	.pool_lookup = ol_pool_cb,
	.locate = ol_locate_cb,
	.set_backtrace = ol_set_bt_cb,
	.get_backtrace = ol_get_bt_cb,
	.remove_backtrace = ol_remove_bt_cb,
	.obj_stat = ol_obj_stat_cb,
	.fallocate = ol_fallocate_cb,
};

