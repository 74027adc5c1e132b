terraform {
  backend "consul" {
    address = "127.0.0.1:1"
    scheme  = "http"
    path    = "tfstate/app"
    gzip    = true
  }
}
