/*
 * bt_queue_i.h - the backtrace queue's layout, shared by its files:
 * bt_queue.c (the queue: what is noted, the crash marks, one writer per
 * inode), bt_flush.c (the write-out passes), bt_write.c (one backtrace
 * built and stored) and bt_resume.c (what a crash left, noted again).
 * Not public: vfs_i.h declares what the rest of fs/ calls.
 */
#ifndef CRUSHFS_BT_QUEUE_I_H
#define CRUSHFS_BT_QUEUE_I_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs_i.h"

/* What is noted per inode (bt_queue.c's head comment says each). */
enum { BTQ_SET, BTQ_ADD, BTQ_DEL };

struct btq_op {
	int kind;
	uint64_t dir;
	char *name;
};

struct btq_ent {
	uint64_t ino, stamp;
	struct btq_op *ops;
	size_t nops, cap;
	struct btq_ent *next;
};

/* 100k pending (BTQ_MAX_PENDING, bt_flush.c) in short chains */
#define BTQ_NBUCKETS 16384
#define BTQ_MAX_BUSY 64

struct btq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct btq_ent *tab[BTQ_NBUCKETS];
	size_t count;
	uint64_t busy[BTQ_MAX_BUSY]; /* inodes being written */
	int nbusy;
};

/* Where directories live, looked up once per flush (bt_write.c fills it,
 * the flush frees it). */
struct btq_memo {
	uint64_t dir, parent;
	char *name;
};

uint64_t btq_now_ns(void);
void btq_ent_free(struct btq_ent *e);
/* Under q->lock: ino's entry, made when absent with create. */
struct btq_ent *btq_find(struct btq *q, uint64_t ino, int create);
/* A link change noted on ino, its crash mark written first when needed. */
void btq_note(vfs *v, uint64_t ino, int kind, uint64_t dir,
	      const char *name);
/* Under q->lock: an entry taken for writing (ino's, or with ino 0 any
 * idle one older than cutoff from bucket *from on), marked busy; NULL
 * when there is none. */
struct btq_ent *btq_take(struct btq *q, uint64_t ino, uint64_t cutoff,
			 size_t *from);
/* The write of ino is over (takes q->lock). */
void btq_unbusy(struct btq *q, uint64_t ino);
/* A failed entry put back, before whatever was noted since. */
void btq_requeue(struct btq *q, struct btq_ent *e);
/* Build and store the backtrace of e->ino.  0, or -errno worth a retry. */
int btq_write_one(vfs *v, const struct btq_ent *e, int sync,
		  struct btq_memo **memo, size_t *nmemo);

#endif
