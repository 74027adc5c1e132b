terraform {
  backend "local" {
    path = "state/x.tfstate"
  }
}
