terraform {
  backend "kubernetes" {
    secret_suffix = "app"
    namespace     = "ns"
    config_path   = "kubeconfig"
    insecure      = true
  }
}
