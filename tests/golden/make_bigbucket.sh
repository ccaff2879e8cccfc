#!/usr/bin/env bash
# make_bigbucket.sh N ALG - a crush map whose root holds N devices in one
# bucket of algorithm ALG (uniform, list, straw, straw2), weights varied
# but for uniform, and a rule choosing 3 of them.  Deterministic: the
# golden family bigbucket/ is made from and checked against these maps
# without committing them (2.4 MB each at N = 100,000).
set -euo pipefail
n=$1 alg=$2
awk -v n="$n" -v alg="$alg" 'BEGIN {
	print "tunable choose_total_tries 50"
	print "tunable chooseleaf_descend_once 1"
	print "tunable chooseleaf_vary_r 1"
	print "tunable chooseleaf_stable 1"
	print "tunable straw_calc_version 1"
	for (i = 0; i < n; i++)
		printf "device %d osd.%d\n", i, i
	print "type 0 osd"
	print "type 1 root"
	printf "root default {\n\tid -1\n\talg %s\n\thash 0\n", alg
	for (i = 0; i < n; i++)
		printf "\titem osd.%d weight %.3f\n", i,
			alg == "uniform" ? 0.01 : 0.01 + (i % 7) * 0.001
	print "}"
	print "rule big {\n\tid 0\n\ttype replicated\n\tmin_size 1\n\tmax_size 10"
	print "\tstep take default\n\tstep choose firstn 0 type osd\n\tstep emit\n}"
}'
