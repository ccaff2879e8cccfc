choose_args (the weight sets Ceph's balancer leaves in crush-compat mode)
in a cluster: a pool maps with its own set (its id), else with the default
set, exactly as `osdmap test-map-pgs-dump` (checked against osdmaptool by
the golden vectors) maps it.

  $ MAP=$TESTDIR/../golden/maps/cargs_pools.txt
  $ grep '^choose_args' "$MAP"
  choose_args 18446744073709551615 {
  choose_args 1 {
  choose_args 3 {
  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 32 --crush-map "$MAP" > /dev/null
  $ crushfs --cluster cl pg dump pgs | awk '/^1\./ {print $1, $8}' > cluster.txt
  $ crushfs osdmap test-map-pgs-dump --crush "$MAP" --pool 1 --pg-num 32 | awk '/^1\./ {print $1, $2}' > oracle.txt
  $ diff cluster.txt oracle.txt && wc -l < cluster.txt
  32

The sets change the mapping: the same map without them maps otherwise.

  $ sed '/^# choose_args/,/^# end crush map/d' "$MAP" > plain.txt
  $ crushfs osdmap test-map-pgs-dump --crush plain.txt --pool 1 --pg-num 32 | awk '/^1\./ {print $1, $2}' > plain.out
  $ cmp -s plain.out oracle.txt || echo differs
  differs

A reweight keeps the weight sets in step as Ceph does (the item's entries
take the new weight, each bucket's entry in its parent becomes the sum of
its set; tests/golden/check_reweight.sh compares with crushtool
--reweight-item byte for byte):

  $ crushfs --cluster cl osd crush reweight osd.1 2.0
  reweighted item id 1 name 'osd.1' to 2 in crush map
  $ sed -n '/^# choose_args/,$p' cl/crushmap.txt | grep -q ' 2\.000 ' && echo "osd.1's weight-set entries took 2.0"
  osd.1's weight-set entries took 2.0

Adding an OSD grows its host's weight sets as Ceph's bucket_add_item does
and gives the new OSD its weight there as insert_item does
(tests/golden/check_additem.sh compares with crushtool --add-item byte
for byte):

  $ crushfs --cluster cl osd add --host h0 --size 1G
  added osd.12 on host h0 (capacity 1 GiB, crush weight 0.00099)
  $ sed -n '/^# choose_args/,$p' cl/crushmap.txt | grep -c ' 0\.001 \]'
  4

Binary maps carry them too, byte for byte as crushtool -c writes them
(tests/golden/check_binary.sh compares every golden map), and a cut or
inconsistent set is refused with the byte offset:

  $ crushfs crush compile "$MAP" -o m.bin
  $ crushfs crush decompile m.bin | diff - "$MAP"
  $ head -c $(( $(stat -c %s m.bin) - 6 )) m.bin > cut.bin
  $ crushfs crush decompile cut.bin
  cut.bin: truncated at byte * (glob)
  [1]

With device classes too, a reweight keeps every shadow tree's weight sets
in step (golden/reweight has such cases), and an added OSD makes the shadow
trees' weight sets what Ceph's rebuild_roots_with_classes makes them
(golden/additem: 4 such cases byte-identical to crushtool --add-item).  A
new host gets its shadow copies (no weight set: its original has none yet);
the root's shadow copies carry the child sums only in the last position,
as Ceph 16.2's device_class_clone leaves them:

  $ crushfs --cluster cc mkfs --crush-map $TESTDIR/../golden/maps/cargs_classes.txt --osd-size 64M > /dev/null
  $ crushfs --cluster cc osd add --host h0
  added osd.16 on host h0 (capacity 64 MiB, crush weight 0.00099)
  $ crushfs --cluster cc osd add --host newhost
  added osd.17 on host newhost (capacity 64 MiB, crush weight 0.00099)
  $ grep -A4 '^host newhost' cc/crushmap.txt
  host newhost {
  	id -16		# do not change unnecessarily (esc)
  	id -17 class hdd		# do not change unnecessarily (esc)
  	id -18 class ssd		# do not change unnecessarily (esc)
  	# weight 0.001 (esc)
  $ crushfs crush decompile cc/crushmap.txt > /dev/null
  $ crushfs --cluster cc osd crush reweight osd.3 0.5
  reweighted item id 3 name 'osd.3' to 0.5 in crush map
