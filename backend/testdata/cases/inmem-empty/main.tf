terraform {
  backend "inmem" {}
}
