terraform {
  backend "kubernetes" {
    secret_suffix     = "app"
    namespace         = "ns"
    host              = "https://127.0.0.1:1"
    token             = "fake-token"
    insecure          = true
    load_config_file  = false
    in_cluster_config = false
  }
}
