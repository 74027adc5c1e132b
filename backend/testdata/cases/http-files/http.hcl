address = "@ENDPOINT@/state"
lock_address = "@ENDPOINT@/lock"
