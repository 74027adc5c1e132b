terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = ">= 3.0, < 4"
    }
  }
}

resource "random_pet" "name" {
  length = 2
}

resource "null_resource" "hello" {
  triggers = {
    name = random_pet.name.id
  }
}
