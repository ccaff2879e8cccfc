`health mute` and `health unmute`, as Ceph 16.2's HealthMonitor: a muted
check stays listed but leaves the status; a mute ends at its TTL, and one
that is not sticky when its check's count grows or the check clears.

  $ crushfs --cluster h mkfs --osds 6 --hosts 3 --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster h osd set noout > /dev/null
  $ crushfs --cluster h health
  HEALTH_WARN noout flag(s) set
  $ crushfs --cluster h health mute OSDMAP_FLAGS
  $ crushfs --cluster h health detail
  HEALTH_OK (muted: OSDMAP_FLAGS)
  (MUTED) [WRN] OSDMAP_FLAGS: noout flag(s) set
  $ crushfs --cluster h status | sed -n 3p
      health: HEALTH_OK (muted: OSDMAP_FLAGS)
  $ crushfs --cluster h -f json health | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["status"], d["checks"]["OSDMAP_FLAGS"]["muted"], d["mutes"])'
  HEALTH_OK True [{'code': 'OSDMAP_FLAGS', 'sticky': False, 'summary': 'noout flag(s) set', 'count': 5}]

The count grows (another flag): the mute ends.

  $ crushfs --cluster h osd set noin > /dev/null
  $ crushfs --cluster h health detail
  HEALTH_WARN noout,noin flag(s) set
  [WRN] OSDMAP_FLAGS: noout,noin flag(s) set

Sticky, with a TTL; a check not raised can be muted only sticky.

  $ crushfs --cluster h health mute OSD_DOWN
  crushfs: health mute: health alert OSD_DOWN is not currently raised
  [1]
  $ crushfs --cluster h health mute OSD_DOWN 2h --sticky
  $ crushfs --cluster h health mute OSDMAP_FLAGS 3s
  $ crushfs --cluster h osd down 2 > /dev/null
  $ crushfs --cluster h health detail | grep -v '^    '
  HEALTH_WARN Degraded data redundancy: * (muted: OSDMAP_FLAGS(*s) OSD_DOWN(*)) (glob)
  (MUTED ttl *s) [WRN] OSDMAP_FLAGS: noout,noin flag(s) set (glob)
  (MUTED ttl *, STICKY) [WRN] OSD_DOWN: 1 osds down (glob)
  [WRN] PG_DEGRADED: Degraded data redundancy: * (glob)

The TTL passes (a poll with a limit):

  $ for i in $(seq 200); do crushfs --cluster h health | grep -q OSDMAP_FLAGS. || break; sleep 0.05; done
  $ crushfs --cluster h health
  HEALTH_WARN noout,noin flag(s) set; Degraded data redundancy: * (muted: OSD_DOWN(*)) (glob)
  $ crushfs --cluster h health unmute OSD_DOWN
  $ crushfs --cluster h health | grep -c muted
  0
  [1]
  $ crushfs --cluster h health mute OSD_DOWN
  $ crushfs --cluster h health unmute
  $ crushfs --cluster h health | grep -c muted
  0
  [1]

Bad input: one line.

  $ crushfs --cluster h health mute OSD_DOWN 5q
  crushfs: health mute: not a valid duration: 5q
  [1]
  $ crushfs --cluster h health mute
  crushfs: health mute: must specify an alert code to mute
  [1]
