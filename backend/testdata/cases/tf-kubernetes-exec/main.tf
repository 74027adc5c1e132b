terraform {
  backend "kubernetes" {
    secret_suffix = "app"
    namespace     = "ns"
    config_paths  = ["kubeconfig"]
    insecure      = true
    proxy_url     = "http://127.0.0.1:1"
    labels = {
      team = "infra"
    }
    exec {
      api_version = "client.authentication.k8s.io/v1beta1"
      command     = "true"
      args        = ["a", "b"]
      env = {
        X = "1"
      }
    }
  }
}
