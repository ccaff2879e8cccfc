/*
 * fsck_i.h - the state of one filesystem check, shared by its passes:
 * fsck.c (metadata, objects, cluster), fsck_lost.c (objects of no inode
 * adopted in /lost+found) and fsck_bt.c (backtraces).  Not public.
 */
#ifndef CRUSHFS_FSCK_I_H
#define CRUSHFS_FSCK_I_H

#include <stddef.h>
#include <stdint.h>

#include "fs.h"
#include "kv.h"
#include "mds.h"
#include "recover.h"

/* A name of an inode (its dentries, as pass 2 found them). */
struct fsck_link {
	uint64_t dir;
	char *name;
};

struct fent {
	uint64_t ino;
	struct mds_inode rec;
	uint32_t links, subdirs;
	uint64_t trim_bound; /* objects seen past the end: truncate to size */
	uint64_t keep_to;    /* its size could not be recovered: objects
			      * below this are left alone */
	int used;	     /* 1: live, 2: handled (purged) */
	int changed;
	struct fsck_link *lnk; /* every name, for the backtrace check */
	uint32_t nlnk;
};

struct fck {
	cfs_cluster *c;
	objlayer *ol;
	kv *db;
	mds *m;
	int repair, deep;
	void (*msg)(const char *, void *);
	void (*progress)(uint64_t, uint64_t, uint64_t, void *);
	void *arg;
	struct fs_fsck_report *r;
	struct fent *tab;
	size_t cap, n;
	kv_batch *b;
	int64_t ino_delta; /* inode records the repairs add (-: delete) */
	char **objs;
	size_t nobjs, objcap;
	int64_t pool; /* the pool whose objects are being checked */
};

/* Where a file's object bytes may end: its size, or its preallocated
 * end (fallocate with KEEP_SIZE). */
uint64_t fsck_data_end(struct fck *f, const struct mds_inode *rec);
/* pass 5 (fsck_objects.c) */
void fsck_check_objects(struct fck *f);

void fsck_say(struct fck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct fent *fsck_find(struct fck *f, uint64_t ino);
/* Double the table (pointers into it move). */
int fsck_grow(struct fck *f);
/* /lost+found, made when missing (in f->b and the table). */
int fsck_lost_found(struct fck *f, uint64_t *ino);
/* Commit f->b (synced) and start a new batch. */
int fsck_commit(struct fck *f);
/* Remember a name of e (for the backtrace check). */
int fsck_add_link(struct fent *e, uint64_t dir, const char *name,
		  size_t nlen);
/* "directory", "file", ... */
const char *fsck_type_name(uint32_t mode);

/* fsck_lost.c: objects of inodes the metadata does not know (collected
 * while listing) become entries of /lost+found. */
struct fsck_lost {
	struct rc_obj *v;
	size_t n, cap;
};
int fsck_lost_add(struct fsck_lost *l, int64_t pool, uint64_t ino,
		  uint64_t objno,
		  uint64_t size, const struct timespec *mtime);
void fsck_adopt_lost(struct fck *f, struct fsck_lost *l);

/* fsck_bt.c: every inode's backtrace against its names and record. */
void fsck_backtraces(struct fck *f);
/* Write the backtrace the metadata says for rec with links lnk[0..n). */
int fsck_write_backtrace(struct fck *f, const struct mds_inode *rec,
			 const struct fsck_link *lnk, size_t n);

#endif
