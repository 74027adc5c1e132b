terraform {
  backend "local" {
    nope = 1
    path = "a.tfstate"
  }
}
