#!/usr/bin/env bash
# make_bigmap.sh HOSTS [OSDS_PER_HOST] [HOSTS_PER_RACK] - a crush map text
# as `crushtool -d` prints a real cluster's: HOSTS host buckets of
# OSDS_PER_HOST (default 4) devices each, grouped HOSTS_PER_RACK (default
# 40) to a rack, the racks under one root, straw2 everywhere, a replicated
# rule over hosts and an erasure rule over racks.  MAP_CLASSES=1 gives the
# devices classes (hdd, every fourth ssd), every bucket the shadow ids
# `crushtool -d` prints ("id -N class hdd") and a class rule, so the
# compiler also builds the shadow trees.  Deterministic: the same arguments
# always print the same bytes (bench/map_mem.sh measures loading it).
set -euo pipefail
hosts=$1 per=${2:-4} rack=${3:-40}
awk -v hosts="$hosts" -v per="$per" -v rack="$rack" \
    -v classes="${MAP_CLASSES:-0}" '
# the shadow ids of bucket id
function cids(id) {
	if (!classes)
		return
	printf "\tid %d class hdd\t\t# do not change unnecessarily\n", id - nb
	printf "\tid %d class ssd\t\t# do not change unnecessarily\n", id - 2 * nb
}
BEGIN {
	print "# begin crush map"
	print "tunable choose_local_tries 0"
	print "tunable choose_local_fallback_tries 0"
	print "tunable choose_total_tries 50"
	print "tunable chooseleaf_descend_once 1"
	print "tunable chooseleaf_vary_r 1"
	print "tunable chooseleaf_stable 1"
	print "tunable straw_calc_version 1"
	print "tunable allowed_bucket_algs 54"
	print "\n# devices"
	ndev = hosts * per
	for (i = 0; i < ndev; i++) {
		if (classes)
			printf "device %d osd.%d class %s\n", i, i,
				i % 4 == 3 ? "ssd" : "hdd"
		else
			printf "device %d osd.%d\n", i, i
	}
	print "\n# types"
	print "type 0 osd\ntype 1 host\ntype 2 rack\ntype 3 root"
	print "\n# buckets"
	nracks = int((hosts + rack - 1) / rack)
	nb = hosts + nracks + 1
	id = -1
	# hosts first, then racks, then the root: each bucket is defined
	# before a bucket uses it, as crushtool -d orders them
	for (h = 0; h < hosts; h++) {
		w = 0
		for (k = 0; k < per; k++)
			w += 0.1 + (h * per + k) % 3 * 0.05
		hw[h] = w
		printf "host host%d {\n\tid %d\t\t# do not change unnecessarily\n", h, id--
		cids(id + 1)
		printf "\t# weight %.5f\n\talg straw2\n\thash 0\t# rjenkins1\n", w
		for (k = 0; k < per; k++) {
			d = h * per + k
			printf "\titem osd.%d weight %.5f\n", d, 0.1 + d % 3 * 0.05
		}
		print "}"
	}
	for (r = 0; r < nracks; r++) {
		w = 0
		for (h = r * rack; h < hosts && h < (r + 1) * rack; h++)
			w += hw[h]
		rw[r] = w
		printf "rack rack%d {\n\tid %d\t\t# do not change unnecessarily\n", r, id--
		cids(id + 1)
		printf "\t# weight %.5f\n\talg straw2\n\thash 0\t# rjenkins1\n", w
		for (h = r * rack; h < hosts && h < (r + 1) * rack; h++)
			printf "\titem host%d weight %.5f\n", h, hw[h]
		print "}"
	}
	w = 0
	for (r = 0; r < nracks; r++)
		w += rw[r]
	printf "root default {\n\tid %d\t\t# do not change unnecessarily\n", id--
	cids(id + 1)
	printf "\t# weight %.5f\n\talg straw2\n\thash 0\t# rjenkins1\n", w
	for (r = 0; r < nracks; r++)
		printf "\titem rack%d weight %.5f\n", r, rw[r]
	print "}"
	print "\n# rules"
	print "rule replicated_rule {\n\tid 0\n\ttype replicated\n\tmin_size 1\n\tmax_size 10"
	print "\tstep take default\n\tstep chooseleaf firstn 0 type host\n\tstep emit\n}"
	print "rule ec_rack {\n\tid 1\n\ttype erasure\n\tmin_size 3\n\tmax_size 6"
	print "\tstep set_chooseleaf_tries 5\n\tstep set_choose_tries 100"
	print "\tstep take default\n\tstep chooseleaf indep 0 type rack\n\tstep emit\n}"
	if (classes) {
		print "rule fast {\n\tid 2\n\ttype replicated\n\tmin_size 1\n\tmax_size 10"
		print "\tstep take default class ssd\n\tstep chooseleaf firstn 0 type host\n\tstep emit\n}"
	}
	print "\n# end crush map"
}'
