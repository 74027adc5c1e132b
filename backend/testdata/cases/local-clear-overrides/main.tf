terraform {
  backend "local" {
    path = "a.tfstate"
  }
}
