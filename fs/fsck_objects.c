/*
 * fsck_objects.c - fsck's pass 5 (fsck.c has the list of passes): every
 * object of every pool against the inodes.  An object of an inode the
 * metadata does not know is never deleted (fsck_lost.c remakes the inode);
 * one past the end of its file is removed, one holding bytes past it is
 * trimmed; the copies of each are scrubbed against the authoritative one;
 * an index entry with no copy on any OSD is cleared when no file owns it
 * (a write that never reached an OSD) and reported as lost otherwise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsck_i.h"
#include "fsd_i.h"
#include "ol_scan.h"
#include "util.h"
#include "wrange_i.h"

/* ---- pass 5: objects ---- */

static int collect_obj(const char *name, void *arg)
{
	struct fck *f = arg;

	if (f->nobjs == f->objcap) {
		size_t nc = f->objcap ? f->objcap * 2 : 1024;
		char **o = realloc(f->objs, nc * sizeof(*o));

		if (!o)
			return -ENOMEM;
		f->objs = o;
		f->objcap = nc;
	}
	f->objs[f->nobjs] = strdup(name);
	if (!f->objs[f->nobjs])
		return -ENOMEM;
	f->nobjs++;
	return 0;
}

static void scrub(struct fck *f, const char *name)
{
	struct ol_scrub s;
	int rc = ol_scrub_object(f->ol, f->pool, name, f->deep, f->repair, &s);

	if (rc) {
		fsck_say(f, "object %s: scrub failed: %s", name, cfs_strerror(rc));
		f->r->errors++;
		return;
	}
	if (s.missing + s.size_diff + s.content_diff == 0)
		return;
	f->r->bad_replicas += (uint64_t)(s.missing + s.size_diff +
					 s.content_diff);
	fsck_say(f, "object %s: %d copies missing, %d of another size, %d with "
	    "other bytes than osd.%d's%s",
	    name, s.missing, s.size_diff, s.content_diff, s.auth_osd,
	    s.repaired ? ": recopied" : "");
	f->r->repaired += (uint64_t)s.repaired;
}

/*
 * An object the index holds that no OSD has a file of.  No file owning it
 * (an unknown inode, past its file's end, a rados object is not among
 * these): a write that never reached a copy left the entry (the disk
 * under the cluster filled mid-change), nothing of it can be lost -
 * cleared.  A file owning it: its data is gone (status shows it
 * unfound); reported, never turned into a hole behind the user's back.
 */
static void no_copy(struct fck *f, const char *name)
{
	uint64_t ino, objno, end;
	struct fent *e = NULL;
	int rc;

	if (meta_objname_parse(name, &ino, &objno) && f->tab) {
		e = fsck_find(f, ino);
		if (e && e->used != 1)
			e = NULL;
	}
	if (e && S_ISREG(e->rec.mode) && e->rec.layout.pool == f->pool &&
	    ol_layout_valid(&e->rec.layout)) {
		end = fsck_data_end(f, &e->rec);
		if (e->keep_to > end)
			end = e->keep_to;
		if (objno == 0 || objno < ol_object_count(&e->rec.layout, end))
			goto lost;
	} else if (!meta_objname_parse(name, &ino, &objno)) {
		goto lost; /* a rados object: nothing says it never was */
	}
	f->r->index_no_copy++;
	fsck_say(f, "object %s: in the object index, on no OSD, and no file "
		    "holds it: a write that never reached a copy%s",
		 name, f->repair ? ": entry cleared" : "");
	if (!f->repair)
		return;
	rc = ol_obj_remove(f->ol, f->pool, name);
	if (rc && rc != -ENOENT) {
		fsck_say(f, "clearing %s: %s", name, cfs_strerror(rc));
		f->r->errors++;
	} else {
		f->r->repaired++;
	}
	return;
lost:
	f->r->lost_objects++;
	f->r->errors++;
	fsck_say(f, "object %s: no copy on any OSD: its data is lost "
		    "(unfound); left for the file's owner to rewrite or remove",
		 name);
}

/*
 * The objects of one pool (f->pool) against the inodes: a file's data
 * objects belong in its layout's pool; object 0 of every inode in the
 * default data pool carries its backtrace (CephFS).
 */
static void check_pool_objects(struct fck *f, const struct ol_pool_info *pi,
			       struct fsck_lost *lost)
{
	const cfs_osdmap *map;
	struct ol_pool_info now;
	int rc, min_size, deflt = f->pool == ol_data_pool(f->ol);
	uint32_t pg_num, *unchecked;

	for (size_t i = 0; i < f->nobjs; i++)
		free(f->objs[i]);
	f->nobjs = 0;
	rc = ol_obj_list(f->ol, f->pool, collect_obj, f);
	if (rc) {
		fsck_say(f, "listing pool '%s' failed: %s", pi->name,
			 cfs_strerror(rc));
		f->r->errors++;
		return;
	}
	map = ol_map_get(f->ol);
	if (ol_map_pool(map, f->pool, &now)) { /* gone meanwhile */
		ol_map_put(map);
		return;
	}
	pi = &now;
	pg_num = pi->pg_num;
	f->r->remapped_pgs += (uint64_t)pi->remapped;
	min_size = pi->min_size;
	unchecked = calloc(pg_num, sizeof(*unchecked));
	if (!unchecked) {
		ol_map_put(map);
		f->r->errors++;
		return;
	}
	for (size_t i = 0; i < f->nobjs; i++) {
		const char *name = f->objs[i];
		uint64_t ino, objno, osize = 0, end;
		struct fent *e;
		uint32_t ps;

		if (f->progress)
			f->progress(i, f->nobjs, 0, f->arg);
		f->r->objects++;
		/* a PG too small to serve I/O cannot be checked: said once
		 * per PG below, never taken for "clean" */
		ol_map_object_pg(map, f->pool, name, &ps);
		if (ol_map_pg_nacting(map, f->pool, ps) < min_size) {
			unchecked[ps]++;
			continue;
		}
		if (ol_obj_has_copy(f->ol, f->pool, name) == 0) {
			no_copy(f, name);
			continue;
		}
		if (!meta_objname_parse(name, &ino, &objno)) {
			scrub(f, name); /* a rados object of the user */
			continue;
		}
		e = f->tab ? fsck_find(f, ino) : NULL;
		if (e && e->used != 1)
			e = NULL;
		if (!e) {
			struct timespec mt = { 0, 0 };

			scrub(f, name);
			rc = ol_obj_stat_mtime(f->ol, f->pool, name, &osize, &mt);
			if (rc == 0)
				rc = fsck_lost_add(lost, f->pool, ino, objno,
						   osize, &mt);
			if (rc) {
				fsck_say(f, "object %s: %s", name, cfs_strerror(rc));
				f->r->errors++;
				continue;
			}
			f->r->orphan_objects++;
			f->r->orphan_bytes += osize;
			continue;
		}
		if (!S_ISREG(e->rec.mode) ||
		    e->rec.layout.pool != f->pool) {
			/* the default pool's object 0 of any inode carries
			 * its backtrace; nothing else of the inode belongs
			 * in a pool other than its layout's */
			scrub(f, name);
			ol_obj_stat(f->ol, f->pool, name, &osize);
			if (deflt && objno == 0 &&
			    (osize == 0 || S_ISLNK(e->rec.mode)))
				continue;
			if (!deflt || S_ISREG(e->rec.mode)) {
				f->r->orphan_objects++;
				f->r->orphan_bytes += osize;
				f->r->errors++;
				fsck_say(f, "object %s (%" PRIu64 " bytes) in "
				    "pool '%s': its inode's data is %s: left "
				    "alone", name, osize, pi->name,
				    S_ISREG(e->rec.mode) ? "in another pool"
							 : "none");
				continue;
			}
		}
		if (S_ISREG(e->rec.mode) && !ol_layout_valid(&e->rec.layout)) {
			/* a damaged record: its objects cannot be placed in
			 * the file, so nothing of them is touched */
			if (objno == 0) {
				fsck_say(f, "inode %" PRIx64 ": invalid layout; its "
				    "objects are left alone", ino);
				f->r->errors++;
			}
			continue;
		}
		if (!S_ISREG(e->rec.mode)) {
			scrub(f, name);
			ol_obj_stat(f->ol, f->pool, name, &osize);
			/* object 0 carries the backtrace (and a symlink's
			 * target): expected; anything else is data no file
			 * owns, and not ours to delete */
			if (objno == 0 && (osize == 0 || S_ISLNK(e->rec.mode)))
				continue;
			f->r->orphan_objects++;
			f->r->orphan_bytes += osize;
			f->r->errors++;
			fsck_say(f, "object %s (%" PRIu64 " bytes): its inode is a "
			    "%s: left alone", name, osize,
			    fsck_type_name(e->rec.mode));
			continue;
		}
		/* objects may reach past the size up to a preallocated end,
		 * and, for a size that could not be recovered, up to where
		 * its writeable range reaches: hands off those */
		end = fsck_data_end(f, &e->rec);
		if (e->keep_to > end)
			end = e->keep_to;
		if (objno > 0 && objno >= ol_object_count(&e->rec.layout, end)) {
			ol_obj_stat(f->ol, f->pool, name, &osize);
			f->r->orphan_objects++;
			f->r->orphan_bytes += osize;
			fsck_say(f, "object %s (%" PRIu64 " bytes): past the end of "
			    "its file%s", name, osize,
			    f->repair ? ": removed" : "");
			if (f->repair) {
				rc = ol_obj_remove(f->ol, f->pool, name);
				if (rc && rc != -ENOENT) {
					fsck_say(f, "removing %s: %s", name,
					    cfs_strerror(rc));
					f->r->errors++;
				} else {
					f->r->repaired++;
				}
			}
			continue;
		}
		scrub(f, name);
		if (ol_obj_stat(f->ol, f->pool, name, &osize) == 0 &&
		    osize > ol_object_bytes(&e->rec.layout, objno, end)) {
			uint64_t sc = e->rec.layout.stripe_count;
			uint64_t bound = (objno / sc + 1) * sc *
					 e->rec.layout.object_size;

			f->r->beyond_eof++;
			fsck_say(f, "object %s: %" PRIu64 " bytes, the file's size "
			    "leaves it %" PRIu64 "%s",
			    name, osize,
			    ol_object_bytes(&e->rec.layout, objno, end),
			    f->repair ? ": trimmed" : "");
			if (bound > e->trim_bound)
				e->trim_bound = bound;
		}
	}
	for (uint32_t ps = 0; ps < pg_num; ps++) {
		char pgid[32];

		if (!unchecked[ps])
			continue;
		snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)f->pool, ps);
		fsck_say(f, "pg %s: %d OSD(s) in its acting set, min_size %d: its "
		    "%u object(s) cannot be checked",
		    pgid, ol_map_pg_nacting(map, f->pool, ps), min_size,
		    unchecked[ps]);
		f->r->unchecked += unchecked[ps];
		f->r->unchecked_pgs++;
	}
	free(unchecked);
	ol_map_put(map);
}

void fsck_check_objects(struct fck *f)
{
	const cfs_osdmap *m = ol_map_get(f->ol);
	struct fsck_lost lost = { 0 };
	struct ol_pool_info pi;
	int rc;

	/* every pool that can hold objects: the data pools, and any other
	 * replicated one (`rados -p` objects are scrubbed there) */
	for (int i = 0; ol_map_pool_at(m, i, &pi) == 0; i++) {
		if (ol_is_rados(f->ol) && pi.id != ol_data_pool(f->ol))
			continue;
		f->pool = pi.id;
		check_pool_objects(f, &pi, &lost);
	}
	f->pool = ol_data_pool(f->ol);
	ol_map_put(m);
	/* an unknown inode's objects from every pool at once: its data and
	 * the backtrace in the default pool make one entry */
	fsck_adopt_lost(f, &lost);
	free(lost.v);
	if (!f->repair || !f->tab)
		return;
	for (size_t i = 0; i < f->cap; i++) {
		struct fent *e = &f->tab[i];

		if (e->used != 1 || !e->trim_bound)
			continue;
		rc = ol_truncate(f->ol, e->ino, &e->rec.layout, e->trim_bound,
				 e->keep_to > fsck_data_end(f, &e->rec) ?
					 e->keep_to : fsck_data_end(f, &e->rec));
		if (rc) {
			fsck_say(f, "inode %" PRIx64 ": trimming failed: %s", e->ino,
			    cfs_strerror(rc));
			f->r->errors++;
		} else {
			f->r->repaired++;
		}
	}
}

