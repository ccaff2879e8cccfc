The balancer module's switches (`balancer status|mode|on|off`), as Ceph
16.2's balancer: its options are config options; the runs are the mounted
daemon's (tests/integ/mount_flags.sh).

  $ crushfs --cluster b mkfs --osds 6 --hosts 3 --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster b balancer status
  {
      "active": false,
      "last_optimize_duration": "",
      "last_optimize_started": "",
      "mode": "upmap",
      "no_optimization_needed": false,
      "optimize_result": "",
      "plans": []
  }
  $ crushfs --cluster b balancer on
  $ crushfs --cluster b balancer mode none
  $ crushfs --cluster b -f json balancer status
  {"active":true,"last_optimize_duration":"","last_optimize_started":"","mode":"none","no_optimization_needed":false,"optimize_result":"","plans":[]}
  $ crushfs --cluster b config dump | grep balancer
  mgr         advanced  mgr/balancer/active      true    
  mgr         advanced  mgr/balancer/mode        none    
  $ crushfs --cluster b balancer off
  $ crushfs --cluster b balancer mode upmap
  $ crushfs --cluster b config get mgr mgr/balancer/active
  false
  $ crushfs --cluster b balancer mode crush-compat
  crushfs: balancer mode: crush-compat mode is not implemented in crushfs (upmap is)
  [1]
  $ crushfs --cluster b balancer mode fast
  crushfs: balancer mode: 'fast' not in none|crush-compat|upmap
  [1]
  $ crushfs --cluster b config set mgr mgr/balancer/mode fast
  crushfs: config set: error parsing value: 'fast' not in none|crush-compat|upmap
  [1]
