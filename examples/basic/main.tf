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

resource "random_id" "suffix" {
  byte_length = 4
  keepers = {
    pet = random_pet.name.id
  }
}
